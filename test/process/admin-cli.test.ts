// `herald admin …`: in-process when nothing holds the data directory, over HTTP to the running
// server when one does. JSON on stdout, a message on stderr and a non-zero exit on failure.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeEmbedded } from '../support/embedded-only.ts';
import {
  cleanUpHeralds,
  freePort,
  heraldEnv,
  http,
  makeDataDir,
  runHerald,
  type RunResult,
  startHealthy,
  startHerald,
  until,
  waitForBanner,
  waitForExit,
  waitForHealthy,
} from '../support/spawn.ts';

afterEach(cleanUpHeralds);

/** Runs `herald admin ...args`, expects exit 0 and returns the parsed JSON it printed. */
async function admin<T = Record<string, unknown>>(env: NodeJS.ProcessEnv, ...args: string[]): Promise<T> {
  const result = await runHerald(['admin', ...args], env);
  expect(result.code, `herald admin ${args.join(' ')}\n${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as T;
}

async function adminFails(env: NodeJS.ProcessEnv, ...args: string[]): Promise<RunResult> {
  const result = await runHerald(['admin', ...args], env);
  expect(result.code, `herald admin ${args.join(' ')} should fail`).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.stdout).toBe('');
  return result;
}

/** Teams, a member and a key through the CLI; returns what the key check needs. */
async function provision(env: NodeJS.ProcessEnv) {
  const team = await admin<{ id: number; name: string; plan: string; currency: string; smsEnabled: boolean }>(
    env,
    'teams',
    'create',
    '--name',
    'Acme',
    '--plan',
    'pro',
  );
  expect(team).toMatchObject({ name: 'Acme', plan: 'pro', currency: 'USD', smsEnabled: false });
  expect(Number.isInteger(team.id)).toBe(true);
  expect(await admin(env, 'teams', 'get', String(team.id))).toMatchObject({ id: team.id, name: 'Acme' });

  const member = await admin<{ id: number; email: string; role: string }>(
    env,
    'members',
    'add',
    '--team',
    String(team.id),
    '--email',
    'a@b.co',
    '--role',
    'ADMIN',
  );
  expect(member).toMatchObject({ email: 'a@b.co', role: 'ADMIN' });

  const key = await admin<{ id: string; kind: string; key: string }>(
    env,
    'keys',
    'create',
    '--team',
    String(team.id),
    '--kind',
    'full',
    '--member',
    String(member.id),
  );
  expect(key.kind).toBe('full');
  expect(key.key).toMatch(/^hk_[A-Za-z0-9_-]{43}$/);
  const listed = await admin<Array<{ id: string; hint: string }>>(env, 'keys', 'list', '--team', String(team.id));
  expect(listed.map((k) => k.id)).toContain(key.id);
  expect(JSON.stringify(listed)).not.toContain(key.key); // shown only at creation
  // operator.md's `herald admin outbox`: with no action it lists, like `outbox list`.
  expect(await admin<unknown[]>(env, 'outbox')).toEqual(await admin<unknown[]>(env, 'outbox', 'list'));
  expect(Array.isArray(await admin<unknown[]>(env, 'outbox', '--limit', '5'))).toBe(true);
  // `herald admin destinations`: piped, it prints JSON.
  expect(await admin<{ data: unknown[] }>(env, 'destinations')).toEqual({ data: [] });
  return { team, member, key };
}

async function expectCliErrors(env: NodeJS.ProcessEnv, teamId: number) {
  const missingTeam = await adminFails(env, 'teams', 'get', '99999');
  expect(missingTeam.code).toBe(1);
  expect(missingTeam.stderr).toMatch(/not found/i);

  const duplicate = await adminFails(
    env,
    'members',
    'add',
    '--team',
    String(teamId),
    '--email',
    'a@b.co',
    '--role',
    'MEMBER',
  );
  expect(duplicate.code).toBe(1);
  expect(duplicate.stderr).toMatch(/CONFLICT/);

  const badRole = await adminFails(
    env,
    'members',
    'add',
    '--team',
    String(teamId),
    '--email',
    'c@d.co',
    '--role',
    'KING',
  );
  expect(badRole.code).toBe(1);
  expect(badRole.stderr).toMatch(/role/);

  const noName = await adminFails(env, 'teams', 'create', '--plan', 'pro');
  expect(noName.code).toBe(2);
  expect(noName.stderr).toContain('--name');
  expect(noName.stderr).toContain('teams create --name NAME');

  const unknownOption = await adminFails(env, 'teams', 'create', '--name', 'X', '--colour', 'red');
  expect(unknownOption.code).toBe(2);

  const unknownCommand = await adminFails(env, 'teams', 'explode');
  expect(unknownCommand.code).toBe(2);
  expect(unknownCommand.stderr).toContain('Usage: herald admin');
}

// Every command is a process that opens the embedded database: these tests run a score of them.
describeEmbedded('herald admin without a running server (in-process)', { timeout: 300_000 }, () => {
  it('creates a team, a member and a key, deletes the key, and reports errors', async () => {
    const dataDir = makeDataDir();
    // Default LOG_LEVEL: stdout must still be nothing but the command's JSON.
    const env = heraldEnv(dataDir, await freePort());

    const help = await runHerald(['admin', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('keys create --team TEAM_ID');

    const { team, key } = await provision(env);
    const deleted = await admin(env, 'keys', 'delete', '--team', String(team.id), '--key', key.id);
    expect(deleted).toEqual({ id: key.id, deleted: true });
    const gone = await adminFails(env, 'keys', 'delete', '--team', String(team.id), '--key', key.id);
    expect(gone.stderr).toMatch(/not found/i);
    await expectCliErrors(env, team.id);
    // Each command released the data directory when it finished.
    expect(fs.existsSync(path.join(dataDir, 'herald.lock'))).toBe(false);
  });
});

describeEmbedded('herald admin with a server holding the data directory (over HTTP)', { timeout: 300_000 }, () => {
  it('goes through the running server, and a key it creates authenticates there at once', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const env = heraldEnv(dataDir, port);
    const server = await startHealthy(env, port);
    await waitForBanner(server);

    const { team, key } = await provision(env);
    // The server logged the CLI's requests: they went over HTTP, not around the lock.
    expect(server.stdout()).toContain('"url":"/admin/v1/teams"');
    expect(server.stdout()).toContain(`"url":"/admin/v1/teams/${team.id}/api-keys"`);
    expect(fs.readFileSync(path.join(dataDir, 'herald.lock'), 'utf8').trim()).toBe(String(server.pid));

    const whoami = await http(port, 'GET', '/api/v1/whoami', key.key);
    expect(whoami.status).toBe(200);
    expect(whoami.body).toMatchObject({ teamId: team.id, keyId: key.id, kind: 'full' });

    expect(await admin(env, 'keys', 'delete', '--team', String(team.id), '--key', key.id)).toEqual({
      id: key.id,
      deleted: true,
    });
    expect((await http(port, 'GET', '/api/v1/whoami', key.key)).status).toBe(401); // stops working at once

    await expectCliErrors(env, team.id);
    expect(server.hasExited()).toBe(false);
  });

  it('fails with a message, not a hang, when the holder does not answer on PORT', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const server = await startHealthy(heraldEnv(dataDir, port), port);
    const wrongPort = await freePort();
    const result = await adminFails(heraldEnv(dataDir, wrongPort), 'teams', 'get', '1');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^herald admin: /);
    expect(server.hasExited()).toBe(false);
  });

  // The CLI builds the server's URL from HOST (localServerUrl): an IPv6 host must come out bracketed.
  it('reaches a server listening on an IPv6 HOST', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const env = heraldEnv(dataDir, port, { HOST: '::1' });
    const server = startHerald(['start'], env);
    await waitForHealthy(server, port, 30_000, '::1');
    expect((await admin(env, 'teams', 'get', '1')).id).toBe(1);
  });
});

describeEmbedded('herald admin before the first start', { timeout: 300_000 }, () => {
  // BUG (operator.md: HERALD_ADMIN_TOKEN is "generated and printed when unset and embedded"): the
  // in-process CLI generates the token into secrets.json and prints it nowhere; the team it creates
  // then stops `start` from printing its banner, so the operator never sees the token.
  // Remove `.fails` once either the CLI or the next start prints the generated token.
  it('shows the generated admin token somewhere', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const env = heraldEnv(dataDir, port, { LOG_LEVEL: 'warn' });
    const created = await runHerald(['admin', 'teams', 'create', '--name', 'First'], env);
    expect(created.code).toBe(0);
    const { adminToken } = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as {
      adminToken: string;
    };
    const server = await startHealthy(env, port);
    expect(created.stdout + created.stderr + server.stdout() + server.stderr()).toContain(adminToken);
  });
});

describeEmbedded('herald admin in process (src/admin/cli-child.ts)', () => {
  /** The command lines of the children of `pid` (Linux /proc). */
  const childrenOf = (pid: number) =>
    fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((child) => fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0'));
  const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('runs again in a child with the baseline compiler alone, which a SIGTERM to the command reaches', async () => {
    const env = heraldEnv(makeDataDir(), await freePort());
    const team = await admin<{ id: number }>(env, 'teams', 'create', '--name', 'Tailed');
    const tail = startHerald(['admin', 'webhooks', 'tail', String(team.id), '--json'], env);
    // A child just forked shows this command's own line until it has exec'd: wait for the flag.
    const child = await until('the child with the baseline compiler alone', 20_000, async () => {
      await pause();
      return childrenOf(tail.pid).find((args) => args.includes('--liftoff-only'));
    });
    expect(child).toEqual(expect.arrayContaining(['admin', 'webhooks', 'tail']));
    tail.kill('SIGTERM');
    // 0 when the tail was already following (it takes SIGTERM as "stop"), 128 + 15 when the signal
    // ended the child before: either way the child got it and the command ended.
    const exit = await waitForExit(tail, 15_000);
    expect([0, 143]).toContain(exit.code);
    // The child is gone with its lock: the next command opens the directory.
    await admin(env, 'outbox');
  });
});

// A newcomer's first minute (issue 22, "Done when"): on a fresh data directory, `herald start`, the
// banner's key, the banner's own curl (an email from Herald's built-in domain to the owner), then
// the message read back through `herald admin outbox` and `outbox show` (text and raw), as a new
// user would. With DATABASE_URL there is no banner (a server deployment provisions through the
// admin API), so the team, owner and key are made with `herald admin` and the rest is the same.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { dropTestDatabases, testDatabaseUrl } from '../support/fresh-database.ts';
import {
  cleanUpHeralds,
  freePort,
  heraldEnv,
  http,
  makeDataDir,
  runHerald,
  startHerald,
  waitForBanner,
  waitForHealthy,
} from '../support/spawn.ts';

afterEach(async () => {
  await cleanUpHeralds();
  await dropTestDatabases();
});

/** `herald admin …` against the running server; fails the test on a non-zero exit. */
async function admin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const result = await runHerald(['admin', ...args], env);
  expect(result.code, `herald admin ${args.join(' ')}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** The JSON body of the banner's `curl … -d '…'` line. */
function curlBody(stdout: string): Record<string, unknown> {
  const match = /-d '(\{.*\})'/.exec(stdout);
  expect(match, `no curl in the banner:\n${stdout}`).not.toBeNull();
  return JSON.parse(match![1]!) as Record<string, unknown>;
}

describe("a newcomer's first email", { timeout: 300_000 }, () => {
  it('starts, sends from the built-in domain to the owner with the banner key, and reads it in the outbox', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const databaseUrl = await testDatabaseUrl('first_email');
    const env = heraldEnv(dataDir, port, {
      LOG_LEVEL: 'warn',
      ...(databaseUrl === null
        ? {}
        : {
            DATABASE_URL: databaseUrl,
            HERALD_SECRET: randomBytes(32).toString('hex'),
            HERALD_ADMIN_TOKEN: randomBytes(24).toString('hex'),
            // `herald admin` talks to the running server, as an operator of a deployment does.
            HERALD_ADMIN_URL: `http://127.0.0.1:${port}`,
          }),
    });
    const server = startHerald(['start'], env);
    // First start migrates a fresh database: slow on a loaded CI machine.
    await waitForHealthy(server, port, 150_000);

    let key: string;
    let body: Record<string, unknown>;
    if (databaseUrl === null) {
      key = (await waitForBanner(server)).key;
      const stdout = server.stdout();
      expect(stdout).toContain('owner owner@herald.localhost');
      expect(stdout).toContain('herald -- admin outbox');
      expect(stdout).toContain(`http://127.0.0.1:${port}/api/docs`);
      expect(stdout).toContain(`http://127.0.0.1:${port}/admin/v1`);
      expect(stdout).toContain(`curl -X POST http://127.0.0.1:${port}/api/v1/emails`);
      body = curlBody(stdout);
    } else {
      const team = JSON.parse(await admin(env, 'teams', 'create', '--name', 'First')) as { id: number };
      const owner = JSON.parse(
        await admin(
          env,
          'members',
          'add',
          '--team',
          String(team.id),
          '--email',
          'owner@herald.localhost',
          '--role',
          'OWNER',
        ),
      ) as { id: number };
      key = (
        JSON.parse(
          await admin(env, 'keys', 'create', '--team', String(team.id), '--kind', 'full', '--member', String(owner.id)),
        ) as { key: string }
      ).key;
      body = {
        from: 'Herald <onboarding@herald.localhost>',
        to: 'owner@herald.localhost',
        subject: 'Hello from Herald',
        html: '<p>My first email from Herald.</p>',
      };
    }
    expect(body).toMatchObject({ from: 'Herald <onboarding@herald.localhost>', to: 'owner@herald.localhost' });

    const sent = await http(port, 'POST', '/api/v1/emails', key, body);
    expect(sent.status, sent.text).toBe(200);
    const { emailId } = sent.body as { emailId: string };
    // Anyone else: 403, saying how to add a domain.
    const stranger = await http(port, 'POST', '/api/v1/emails', key, { ...body, to: 'someone@example.com' });
    expect(stranger.status).toBe(403);
    expect(stranger.text).toContain('POST /v1/domains');

    // The worker of `herald start` hands it to the log transport: it shows up in the outbox.
    let listed: { id: string; emailId: string; to: string[]; subject: string }[] = [];
    for (let tries = 0; tries < 200 && listed.length === 0; tries++) {
      listed = JSON.parse(await admin(env, 'outbox')) as typeof listed;
      if (listed.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ emailId, to: ['owner@herald.localhost'], subject: 'Hello from Herald' });

    const text = await admin(env, 'outbox', 'show', listed[0]!.id);
    expect(text).toContain('From: "Herald" <onboarding@herald.localhost>');
    expect(text).toContain('To: owner@herald.localhost');
    expect(text).toContain('Subject: Hello from Herald');
    expect(text).toContain('DKIM: signed');
    expect(text).toContain('My first email from Herald.');
    const eml = await admin(env, 'outbox', 'show', listed[0]!.id, '--eml');
    expect(eml).toMatch(/^DKIM-Signature: .*d=herald\.localhost;.*s=herald;/s);
    expect(eml).toContain('Content-Type: text/plain');

    const dns = JSON.parse(await admin(env, 'dns')) as { records: { name: string; value: string }[] };
    expect(dns.records[0]).toMatchObject({ name: 'herald._domainkey.herald.localhost' });
  });
});

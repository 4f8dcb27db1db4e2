// One embedded data directory, one process: a second process is refused while the first runs,
// and a lock left behind by a process killed with SIGKILL is taken over by the next start.
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
  parseBanner,
  runHerald,
  startHealthy,
  waitForBanner,
  waitForExit,
} from '../support/spawn.ts';

afterEach(cleanUpHeralds);

describeEmbedded('the data directory lock', { timeout: 120_000 }, () => {
  it('refuses a second process on the same data directory while the first keeps serving', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const env = heraldEnv(dataDir, port);
    const first = await startHealthy(env, port);
    const { key } = await waitForBanner(first);

    const migrate = await runHerald(['migrate'], env);
    expect(migrate.code).not.toBe(0);
    expect(migrate.stderr).toContain(dataDir);
    expect(migrate.stderr).toMatch(/already open/);
    expect(migrate.stderr).toContain(String(first.pid));
    expect(migrate.stdout).not.toContain('applied');

    // A second `start` on another port: refused before it listens.
    const otherPort = await freePort();
    const secondStart = await runHerald(['start'], heraldEnv(dataDir, otherPort));
    expect(secondStart.code).not.toBe(0);
    expect(secondStart.stderr).toMatch(/already open/);
    expect(secondStart.stderr).toContain(dataDir);
    expect(parseBanner(secondStart.stdout)).toBeNull();
    await expect(http(otherPort, 'GET', '/healthz')).rejects.toThrow();

    // `herald api` and `herald worker` open the same directory and are refused too.
    for (const command of ['api', 'worker']) {
      const refused = await runHerald([command], heraldEnv(dataDir, otherPort));
      expect(refused.code, command).not.toBe(0);
      expect(refused.stderr, command).toMatch(/already open/);
    }

    // The refused processes did not take or remove the first one's lock.
    expect(fs.readFileSync(path.join(dataDir, 'herald.lock'), 'utf8').trim()).toBe(String(first.pid));
    expect(first.hasExited()).toBe(false);
    expect((await http(port, 'GET', '/readyz')).status).toBe(200);
    expect((await http(port, 'GET', '/api/v1/whoami', key)).status).toBe(200);
  });

  it('takes over the stale lock of a process killed with SIGKILL', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const env = heraldEnv(dataDir, port);
    const first = await startHealthy(env, port);
    const { key, adminToken } = await waitForBanner(first);

    first.kill('SIGKILL');
    expect(await waitForExit(first, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
    const lockFile = path.join(dataDir, 'herald.lock');
    expect(fs.readFileSync(lockFile, 'utf8').trim()).toBe(String(first.pid)); // left behind

    const second = await startHealthy(env, port);
    expect(fs.readFileSync(lockFile, 'utf8').trim()).toBe(String(second.pid));
    expect(parseBanner(second.stdout())).toBeNull();
    expect((await http(port, 'GET', '/readyz')).status).toBe(200);
    const whoami = await http(port, 'GET', '/api/v1/whoami', key);
    expect(whoami.status).toBe(200);
    expect(whoami.body).toMatchObject({ kind: 'full' });
    expect((await http(port, 'GET', '/admin/v1/teams/1', adminToken)).status).toBe(200);

    // And the new holder is protected like the first one was.
    const refused = await runHerald(['migrate'], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/already open/);
  });

  it('lets `migrate` run once the server has stopped', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const env = heraldEnv(dataDir, port);
    const server = await startHealthy(env, port);
    server.kill('SIGTERM');
    expect((await waitForExit(server, 15_000)).code).toBe(0);
    const migrate = await runHerald(['migrate'], env);
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'herald.lock'))).toBe(false);
  });
});

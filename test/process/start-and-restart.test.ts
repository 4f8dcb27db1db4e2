// `herald start` as an operator runs it: first start on an empty data directory prints the
// banner once, the printed key and admin token work over real HTTP, and a restart keeps them.
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
  startHealthy,
  until,
  waitForBanner,
  waitForExit,
} from '../support/spawn.ts';

afterEach(cleanUpHeralds);

describeEmbedded('herald start on an empty data directory', { timeout: 120_000 }, () => {
  it('prints the banner once, serves the API with the printed key and token, and keeps them across a restart', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const env = heraldEnv(dataDir, port);

    const first = await startHealthy(env, port);
    const { key, adminToken } = await waitForBanner(first);
    expect(key).toMatch(/^hk_[A-Za-z0-9_-]{43}$/);
    expect(adminToken.length).toBeGreaterThanOrEqual(16);
    expect(first.stdout().match(/Full access API key:/g)).toHaveLength(1);
    expect(first.stdout()).toContain(`http://127.0.0.1:${port}/api/v1/whoami`);

    const whoami = await http(port, 'GET', '/api/v1/whoami', key);
    expect(whoami.status).toBe(200);
    expect(whoami.body).toMatchObject({ kind: 'full', teamId: 1 });
    expect((await http(port, 'GET', '/api/v1/whoami', `hk_${'A'.repeat(43)}`)).status).toBe(401);

    expect((await http(port, 'GET', '/healthz')).status).toBe(200);
    const ready = await http(port, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
    const metrics = await http(port, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('herald_http_requests_total');

    const team = await http(port, 'GET', '/admin/v1/teams/1', adminToken);
    expect(team.status).toBe(200);
    // An embedded first start with no HERALD_DEFAULT_PLAN makes its team pro.
    expect(team.body).toMatchObject({ id: 1, plan: 'pro', currency: 'USD' });
    expect((await http(port, 'GET', '/admin/v1/teams/1')).status).toBe(401);
    expect((await http(port, 'GET', '/admin/v1/teams/1', `${adminToken}x`)).status).toBe(401);

    first.kill('SIGTERM');
    expect(await waitForExit(first, 15_000)).toEqual({ code: 0, signal: null });

    const second = await startHealthy(env, port);
    expect(parseBanner(second.stdout())).toBeNull();
    expect(second.stdout()).not.toContain(key);
    expect(second.stdout()).not.toContain(adminToken);
    const again = await http(port, 'GET', '/api/v1/whoami', key);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ kind: 'full', teamId: 1 });
    expect((await http(port, 'GET', '/admin/v1/teams/1', adminToken)).status).toBe(200);
    // Still exactly one team: the restart did not bootstrap a second one.
    expect((await http(port, 'GET', '/admin/v1/teams/2', adminToken)).status).toBe(404);
  });

  it('uses HERALD_ADMIN_TOKEN when given, and then prints neither it nor a generated one', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const adminToken = 'operator-chosen-admin-token-0123';
    const proc = await startHealthy(heraldEnv(dataDir, port, { HERALD_ADMIN_TOKEN: adminToken }), port);
    // The banner shows only secrets Herald generated; it says where the admin token comes from.
    const stdout = await until('the banner', 30_000, async () =>
      proc.stdout().includes('Full access API key:') ? proc.stdout() : undefined,
    );
    expect(stdout).toContain('HERALD_ADMIN_TOKEN gives (from the environment; not shown)');
    expect(stdout).not.toMatch(/Admin token:/);
    expect(proc.stdout() + proc.stderr()).not.toContain(adminToken);
    expect(proc.stdout()).not.toMatch(/hadm_/);
    expect((await http(port, 'GET', '/admin/v1/teams/1', adminToken)).status).toBe(200);
  });
});

describeEmbedded('SIGTERM', { timeout: 90_000 }, () => {
  it('shuts down gracefully: exit code 0 within seconds, lock file removed, data directory reusable', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const proc = await startHealthy(heraldEnv(dataDir, port), port);
    const lockFile = path.join(dataDir, 'herald.lock');
    expect(fs.readFileSync(lockFile, 'utf8').trim()).toBe(String(proc.pid));

    const started = performance.now();
    proc.kill('SIGTERM');
    expect(await waitForExit(proc, 10_000)).toEqual({ code: 0, signal: null });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(proc.stderr()).toContain('SIGTERM received');
    expect(fs.existsSync(lockFile)).toBe(false);
    // Nothing is listening any more.
    await expect(http(port, 'GET', '/healthz')).rejects.toThrow();
  });

  it('SIGINT (Ctrl-C) shuts down the same way', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const proc = await startHealthy(heraldEnv(dataDir, port), port);
    proc.kill('SIGINT');
    expect(await waitForExit(proc, 10_000)).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, 'herald.lock'))).toBe(false);
  });
});

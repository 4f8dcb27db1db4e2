// kill -9 in the middle of writes: every write the service acknowledged (201) is still there after
// a restart on the same embedded data directory.
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
  waitForBanner,
  waitForExit,
} from '../support/spawn.ts';

afterEach(cleanUpHeralds);

const WRITERS = 4;
/** Acknowledged teams to reach before the kill; the kill lands while WRITERS requests are in flight. */
const ACKNOWLEDGED_BEFORE_KILL = 60;

describeEmbedded('SIGKILL during writes', { timeout: 120_000 }, () => {
  it('loses no acknowledged team', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const env = heraldEnv(dataDir, port, { LOG_LEVEL: 'warn' });
    const first = await startHealthy(env, port);
    const { adminToken } = await waitForBanner(first);

    const acknowledged: number[] = [];
    let failedAfterKill = 0;
    let killed = false;
    const writer = async (writerId: number) => {
      // Each writer keeps writing until the dead process stops answering it, so every write that
      // raced the kill is either acknowledged (and recorded) or failed.
      for (let i = 0; ; i++) {
        try {
          const response = await http(port, 'POST', '/admin/v1/teams', adminToken, {
            name: `crash-${writerId}-${i}`,
            plan: 'pro',
          });
          if (response.status === 201) {
            acknowledged.push((response.body as { id: number }).id);
          } else if (!killed) {
            throw new Error(`unexpected ${response.status}: ${response.text}`);
          }
        } catch (error) {
          if (!killed) throw error;
          failedAfterKill++;
          return; // the connection died with the process
        }
        if (!killed && acknowledged.length >= ACKNOWLEDGED_BEFORE_KILL) {
          killed = true;
          first.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    expect(await waitForExit(first, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(acknowledged.length).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
    // Every writer ended on a request the killed process never answered.
    expect(failedAfterKill).toBe(WRITERS);

    const second = await startHealthy(env, port);
    expect(parseBanner(second.stdout())).toBeNull();
    expect((await http(port, 'GET', '/readyz')).status).toBe(200);
    const missing: number[] = [];
    for (const id of acknowledged) {
      const team = await http(port, 'GET', `/admin/v1/teams/${id}`, adminToken);
      if (team.status !== 200) missing.push(id);
      else expect(team.body).toMatchObject({ id, plan: 'pro' });
    }
    expect(missing, `acknowledged teams lost by kill -9: ${missing.join(', ')}`).toEqual([]);

    // The restarted database takes writes again, with ids past every acknowledged one.
    const next = await http(port, 'POST', '/admin/v1/teams', adminToken, { name: 'after-restart' });
    expect(next.status).toBe(201);
    expect((next.body as { id: number }).id).toBeGreaterThan(Math.max(...acknowledged));
  });
});

// `herald migrate`: applies pending migrations, prints {"applied": [...]} and exits 0.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeEmbedded } from '../support/embedded-only.ts';
import { listMigrations } from '../../src/db/migrate.ts';
import { cleanUpHeralds, freePort, heraldEnv, makeDataDir, runHerald } from '../support/spawn.ts';

afterEach(cleanUpHeralds);

/** The JSON line `migrate` prints (log lines may share stdout). */
function appliedFrom(stdout: string): unknown {
  const line = stdout.split('\n').find((l) => l.startsWith('{"applied"'));
  expect(line, `no {"applied": …} line in:\n${stdout}`).toBeDefined();
  return JSON.parse(line!).applied;
}

describeEmbedded('herald migrate', { timeout: 90_000 }, () => {
  it('applies every migration on a fresh data directory, then nothing on a second run', async () => {
    const dataDir = makeDataDir();
    const env = heraldEnv(dataDir, await freePort());
    const names = listMigrations().map((m) => m.name);
    expect(names.length).toBeGreaterThan(0);

    const first = await runHerald(['migrate'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(appliedFrom(first.stdout)).toEqual(names);
    // It exits on its own, releasing the lock, and provisions nothing (no first-start banner).
    expect(fs.existsSync(path.join(dataDir, 'herald.lock'))).toBe(false);
    expect(first.stdout).not.toContain('Full access API key');

    const second = await runHerald(['migrate'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(appliedFrom(second.stdout)).toEqual([]);
  });
});

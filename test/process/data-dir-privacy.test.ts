// The embedded data directory is owner-only (0700 folders, 0600 files) whatever the umask herald was
// started with; an older directory with looser modes is fixed at start, with a warning. secrets.json
// keeps only what the environment does not give, and the start log names each secret's source
// without its value.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeEmbedded } from '../support/embedded-only.ts';
import {
  cleanUpHeralds,
  freePort,
  heraldEnv,
  type HeraldProcess,
  http,
  makeDataDir,
  startHerald,
  until,
  waitForBanner,
  waitForExit,
  waitForHealthy,
} from '../support/spawn.ts';

afterEach(cleanUpHeralds);

const SECRET = 'operator-given-secret-0123456789-abcdefghij';

/** Every folder and file under `dir` (itself included) with group or other permission bits. */
function accessibleByOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (file: string) => {
    const stat = fs.lstatSync(file);
    if ((stat.mode & 0o077) !== 0) found.push(`${(stat.mode & 0o777).toString(8)} ${path.relative(dir, file)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(file)) visit(path.join(file, name));
  };
  visit(dir);
  return found;
}

function loosen(dir: string): number {
  let count = 0;
  const visit = (file: string) => {
    const stat = fs.lstatSync(file);
    fs.chmodSync(file, stat.isDirectory() ? 0o777 : 0o666);
    count++;
    if (stat.isDirectory()) for (const name of fs.readdirSync(file)) visit(path.join(file, name));
  };
  visit(dir);
  return count;
}

/** `herald start` with umask 000 (inherited by the child), healthy. */
async function startWithOpenUmask(env: NodeJS.ProcessEnv, port: number): Promise<HeraldProcess> {
  const previous = process.umask(0);
  let proc: HeraldProcess;
  try {
    proc = startHerald(['start'], env);
  } finally {
    process.umask(previous);
  }
  // A first start unpacks and migrates the embedded database: slow on a loaded machine.
  await waitForHealthy(proc, port, 180_000).catch((error: Error) => {
    throw new Error(`${error.message}\nstdout:\n${proc.stdout()}`);
  });
  return proc;
}

const logLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describeEmbedded('a private data directory', { timeout: 480_000 }, () => {
  it('is owner-only after a first start under umask 000, and an older loose one is fixed at start', async () => {
    const dataDir = path.join(makeDataDir(), 'data');
    const port = await freePort();
    const env = heraldEnv(dataDir, port, { HERALD_SECRET: SECRET, LOG_LEVEL: 'info' });

    const first = await startWithOpenUmask(env, port);
    const banner = await waitForBanner(first);
    expect(accessibleByOthers(dataDir)).toEqual([]);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);

    // secrets.json keeps the generated admin token only: the secret came from the environment.
    const stored = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(stored)).toEqual(['adminToken']);
    expect(stored.adminToken).toBe(banner.adminToken);

    const logs = first.stdout() + first.stderr();
    const sources = logLines(logs).find((line) => line.msg === 'instance secrets');
    expect(sources).toMatchObject({ secret: 'environment', adminToken: 'generated into secrets.json' });
    expect(logs).not.toContain(SECRET);
    first.kill('SIGTERM');
    expect((await waitForExit(first, 60_000)).code).toBe(0);

    // An older directory: everything group- and world-writable.
    const entries = loosen(dataDir);
    const second = await startWithOpenUmask(env, port);
    const warning = logLines(second.stdout() + second.stderr()).find((line) =>
      String(line.msg).startsWith('data directory had group- or world-accessible entries'),
    );
    expect(warning).toMatchObject({ entries, dataDir });
    expect(accessibleByOthers(dataDir)).toEqual([]);
    // Log lines reach the pipe asynchronously: wait for this one rather than read it once.
    const restarted = await until('the restart logs its secret sources', 10_000, async () =>
      logLines(`${second.stdout()}\n${second.stderr()}`).find((line) => line.msg === 'instance secrets'),
    );
    expect(restarted).toMatchObject({ secret: 'environment', adminToken: 'secrets.json' });
    // The data survived the change of modes.
    expect((await http(port, 'GET', '/api/v1/whoami', banner.key)).status).toBe(200);
  });
});

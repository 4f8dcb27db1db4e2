// `npm start` as a service manager runs it: SIGTERM to the npm process must stop Herald too. npm
// runs a script through `sh -c`; without `exec` the shell died of the signal npm passed on and
// Herald, its child, lived on under PID 1, still serving.
import { spawn } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { describeEmbedded } from '../support/embedded-only.ts';
import { REPO_ROOT, cleanUpHeralds, freePort, heraldEnv, http, makeDataDir, until } from '../support/spawn.ts';

let strays: number[] = [];
afterEach(async () => {
  // Only what this test started: a Herald left running by a failed assertion.
  for (const pid of strays) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  strays = [];
  await cleanUpHeralds(); // the data directory
});

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describeEmbedded('npm start', { timeout: 120_000 }, () => {
  it('stops Herald when the npm process is sent SIGTERM', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: REPO_ROOT,
      env: heraldEnv(makeDataDir(), port),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    npm.stderr.resume();
    const npmExited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));

    // Herald's own pid, from its log lines (pino writes it in each).
    const heraldPid = await until('Herald listening', 60_000, async () => {
      const line = stdout
        .split('\n')
        .slice(0, -1) // whole lines only
        .find((text) => text.includes('Server listening'));
      return line === undefined ? undefined : (JSON.parse(line) as { pid: number }).pid;
    });
    strays.push(heraldPid);
    expect(heraldPid).not.toBe(npm.pid);
    expect((await http(port, 'GET', '/healthz')).status).toBe(200);

    npm.kill('SIGTERM');
    await npmExited;
    await until('Herald gone', 30_000, async () => (isRunning(heraldPid) ? undefined : true));
    await expect(http(port, 'GET', '/healthz')).rejects.toThrow();
    expect(stdout).toContain('queue runner stopped'); // a graceful shutdown, not a kill
  });
});

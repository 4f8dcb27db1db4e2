// Start-up as an operator meets it (issue 22, "A sturdy start"): every variable and port checked
// before anything is created, each failure one line on stderr and a non-zero exit (no stack trace,
// no password), JSON logs off a terminal with the probes at debug, /metrics on HERALD_METRICS_PORT,
// and `herald admin` finding the running server from the data directory without PORT.
import fs from 'node:fs';
import net from 'node:net';
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
  waitForBanner,
  waitForExit,
  waitForHealthy,
} from '../support/spawn.ts';

const blockers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(blockers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await cleanUpHeralds();
});

const SECRET = 'a-long-enough-master-secret-0123456789';
const PASSWORD = 'hunter2-never-shown';

/** Something else listening on `port`, as another program would. */
async function occupy(port: number): Promise<void> {
  const server = net.createServer();
  blockers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
}

/** Exited by itself, non-zero, with exactly `line` on stderr: no stack trace, nothing else. */
function expectOneLine(result: RunResult, line: string, code: number): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stderr).toBe(`herald: ${line}\n`);
  expect(result.stdout).not.toContain('Full access API key');
}

/** The JSON log lines of stdout (the banner's lines are text). */
function logLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const requestUrl = (line: Record<string, unknown>) => (line.req as { url?: string } | undefined)?.url;

describeEmbedded('a busy port', { timeout: 180_000 }, () => {
  it('PORT: one line before anything is created; the next start prints the banner, logs JSON and is found by herald admin without PORT', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const env = heraldEnv(dataDir, port);
    await occupy(port);
    expectOneLine(await runHerald(['start'], env, 30_000), `PORT ${port} is in use; set PORT`, 2);
    expect(fs.readdirSync(dataDir)).toEqual([]);

    await new Promise((resolve) => blockers.pop()!.close(resolve));
    const server = await startHealthy(env, port);
    await waitForBanner(server);

    // Not a terminal: every log line is JSON; waitForHealthy's polling of /healthz left none at info.
    const lines = logLines(server.stdout());
    expect(lines.some((line) => line.msg === 'instance secrets')).toBe(true);
    expect(lines.every((line) => typeof line.level === 'number' && typeof line.time === 'number')).toBe(true);
    expect(lines.filter((line) => requestUrl(line) === '/healthz')).toEqual([]);
    expect(
      server
        .stdout()
        .split('\n')
        .filter((line) => /"level":|\b(INFO|WARN)\b/.test(line) && !line.startsWith('{')),
    ).toEqual([]);

    const recorded = JSON.parse(fs.readFileSync(path.join(dataDir, 'server.json'), 'utf8'));
    expect(recorded).toEqual({ pid: server.pid, url: `http://127.0.0.1:${port}` });
    const withoutPort = { ...env };
    delete withoutPort.PORT;
    const team = await runHerald(['admin', 'teams', 'get', '1'], withoutPort);
    expect(team.code, team.stderr).toBe(0);
    expect(JSON.parse(team.stdout)).toMatchObject({ id: 1 });
    // The request went to the running server (the in-process path cannot open a held data directory).
    expect(logLines(server.stdout()).some((line) => requestUrl(line) === '/admin/v1/teams/1')).toBe(true);

    server.kill('SIGTERM');
    expect(await waitForExit(server, 15_000)).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
  });

  it.each(['api', 'worker'])('`herald %s`: one line', async (command) => {
    const dataDir = makeDataDir();
    const port = await freePort();
    await occupy(port);
    expectOneLine(await runHerald([command], heraldEnv(dataDir, port), 30_000), `PORT ${port} is in use; set PORT`, 2);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('HERALD_SMTP_PORT under `herald start`: one line, nothing created', async () => {
    const dataDir = makeDataDir();
    const smtpPort = await freePort();
    await occupy(smtpPort);
    const env = heraldEnv(dataDir, await freePort(), { HERALD_SMTP_PORT: String(smtpPort) });
    expectOneLine(
      await runHerald(['start'], env, 30_000),
      `HERALD_SMTP_PORT ${smtpPort} is in use; set HERALD_SMTP_PORT`,
      2,
    );
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('HERALD_METRICS_PORT equal to PORT: one line naming both', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const result = await runHerald(['api'], heraldEnv(dataDir, port, { HERALD_METRICS_PORT: String(port) }), 30_000);
    expectOneLine(result, `HERALD_METRICS_PORT ${port} is also PORT; set HERALD_METRICS_PORT to another port`, 2);
  });
});

describeEmbedded('HOST', { timeout: 60_000 }, () => {
  it('a value that is no address: refused as a variable, nothing created', async () => {
    const dataDir = makeDataDir();
    const result = await runHerald(['start'], heraldEnv(dataDir, await freePort(), { HOST: 'not a host' }), 30_000);
    expectOneLine(
      result,
      'HOST="not a host" is not valid: HOST accepts an IP address (0.0.0.0, ::, 127.0.0.1) or a host name of this machine',
      2,
    );
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it("another machine's address: one line, nothing created", async () => {
    const dataDir = makeDataDir();
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of this machine.
    const result = await runHerald(['start'], heraldEnv(dataDir, await freePort(), { HOST: '192.0.2.1' }), 30_000);
    expectOneLine(result, 'HOST 192.0.2.1 is not an address of this machine; set HOST', 2);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

describeEmbedded('a bad DATABASE_URL is never echoed, whatever its form', { timeout: 90_000 }, () => {
  it.each([
    ['start', PASSWORD],
    ['migrate', PASSWORD],
    // Not percent-encoded: no masking finds where such a password ends.
    ['start', `${PASSWORD} with spaces`],
  ])(
    'unreachable, under `herald %s`: one line naming DATABASE_URL and where it points, exit 1',
    async (command, password) => {
      const dataDir = makeDataDir();
      // Nothing listens on port 1.
      const url = `postgres://herald:${password}@127.0.0.1:1/herald`;
      const env = heraldEnv(dataDir, await freePort(), { DATABASE_URL: url, HERALD_SECRET: SECRET });
      const result = await runHerald([command], env, 30_000);
      expectOneLine(
        result,
        'cannot reach the database at host 127.0.0.1, port 1, database herald (connect ECONNREFUSED 127.0.0.1:1); check DATABASE_URL',
        1,
      );
      expect(result.stdout + result.stderr).not.toContain(PASSWORD);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
  );

  it('malformed: refused naming the part that is wrong, the value not shown', async () => {
    const url = `postgres://herald:${PASSWORD} with spaces@db:port/herald`;
    const env = heraldEnv(makeDataDir(), await freePort(), { DATABASE_URL: url, HERALD_SECRET: SECRET });
    const result = await runHerald(['start'], env, 30_000);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^herald: DATABASE_URL is not valid: its port is not a number from 1 to 65535 /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);
    expect(result.stdout + result.stderr).not.toContain('herald:hunter2');
  });
});

describeEmbedded('HERALD_METRICS_PORT', { timeout: 180_000 }, () => {
  const standardNames = [
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_heap_size_used_bytes',
    'nodejs_eventloop_lag_seconds',
  ];

  /** prom-client's default metrics under their own names, as any Node.js dashboard expects them. */
  function expectStandardNames(text: string): void {
    for (const name of standardNames) expect(text).toMatch(new RegExp(`^${name}(\\{[^}]*\\})? `, 'm'));
    expect(text).not.toContain('herald_process_');
  }

  async function metricsAt(port: number): Promise<string> {
    const response = await http(port, 'GET', '/metrics');
    expect(response.status).toBe(200);
    return response.text;
  }

  it('`herald start`: /metrics there with the standard process metrics, and no longer on PORT', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const metricsPort = await freePort();
    const env = heraldEnv(dataDir, port, { HERALD_METRICS_PORT: String(metricsPort), LOG_LEVEL: 'debug' });
    const server = await startHealthy(env, port);

    const text = await metricsAt(metricsPort);
    expectStandardNames(text);
    expect(text).toContain('herald_http_requests_total{method="GET",route="/healthz",status="200"}');
    expect(text).toContain('herald_queue_depth');

    expect((await http(port, 'GET', '/metrics')).status).toBe(404);
    expect((await http(port, 'GET', '/healthz')).status).toBe(200);
    expect((await http(metricsPort, 'GET', '/api/v1/whoami')).status).toBe(404); // the API is not there

    // At LOG_LEVEL=debug the probes are logged, at debug.
    const probes = logLines(server.stdout()).filter((line) => requestUrl(line) === '/healthz');
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.every((line) => line.level === 20)).toBe(true);
  });

  it('`herald worker`: /metrics there (its queue depths included), /healthz still on PORT', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const metricsPort = await freePort();
    const env = heraldEnv(dataDir, port, { HERALD_METRICS_PORT: String(metricsPort) });
    // A worker does not migrate; its queue depths need the tables.
    expect((await runHerald(['migrate'], env)).code).toBe(0);
    const worker = startHerald(['worker'], env);
    await waitForHealthy(worker, port);
    const text = await metricsAt(metricsPort);
    expectStandardNames(text);
    expect(text).toContain('herald_queue_depth{queue="email-delivery"}');
    expect((await http(port, 'GET', '/metrics')).status).toBe(404);
  });

  it('unset: /metrics on PORT, under the same standard names', async () => {
    // `herald smtp` with its listener off (as heraldEnv sets it): the lightest process with a PORT.
    const dataDir = makeDataDir();
    const port = await freePort();
    const smtp = startHerald(['smtp'], heraldEnv(dataDir, port));
    await waitForHealthy(smtp, port);
    const text = await metricsAt(port);
    expectStandardNames(text);
  });
});

describeEmbedded('herald admin', { timeout: 60_000 }, () => {
  it('checks HERALD_ADMIN_URL before anything, like every other variable', async () => {
    const dataDir = makeDataDir();
    const env = heraldEnv(dataDir, await freePort(), { HERALD_ADMIN_URL: 'ftp://admin.example' });
    const result = await runHerald(['admin', 'teams', 'get', '1'], env, 30_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'HERALD_ADMIN_URL="ftp://admin.example" is not valid: HERALD_ADMIN_URL accepts an absolute http:// or https:// URL',
    );
    expect(result.stdout).toBe('');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

// Redis unreachable, through HTTP on every route that counts on the shared rate-limit counters
// (docs/OPERATIONS.md): the API limit, one-time code sends and the webhook per-minute limits serve
// requests unlimited (risk scoring still refuses abusive codes); billing reads answer the contract's
// 503. The outage is logged once when the circuit opens and once when Redis answers again, with no
// line per request. Two kinds of dead Redis: a port where nothing listens, and a loopback server
// that accepts each connection and closes it at once.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { buildDeps } from '../../src/build-deps.ts';
import type { Deps } from '../../src/deps.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { SEND_LIMITS } from '../../src/verify/limits.ts';
import { discardTestDataDir, testConfig } from '../support/app.ts';
import { getTestDb } from '../support/db.ts';
import { bearer, createSmsTeam } from '../support/factory.ts';
import { freePort } from '../support/spawn.ts';
import { BILLING_READS } from '../billing/support.ts';

interface LogLine {
  level: number;
  msg: string;
  err?: { stack?: string };
}

interface OutageApp {
  app: FastifyInstance;
  deps: Deps;
  logs: LogLine[];
  close(): Promise<void>;
}

const WARN = 40;

/** The real app on the worker's database, its log lines kept (info and above) for the test to read. */
async function appWithRedisAt(port: number): Promise<OutageApp> {
  const logs: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') logs.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const deps = await buildDeps(testConfig({ redisUrl: `redis://127.0.0.1:${port}` }), {
    database: await getTestDb(),
    clock: new ManualClock(new Date()),
    logger: pino({ level: 'info' }, sink),
  });
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    logs,
    async close() {
      await app.close();
      await deps.close();
      discardTestDataDir(deps.config);
    },
  };
}

const call = (app: FastifyInstance, key: string, method: 'GET' | 'POST', path: string, payload?: object) =>
  app.inject({ method, url: `/api${path}`, headers: bearer(key), ...(payload ? { payload } : {}) });

const outageLines = (logs: LogLine[]) => logs.filter((line) => /redis/i.test(line.msg));
const loudLines = (logs: LogLine[]) => logs.filter((line) => line.level >= WARN);

const US = '+14155552671';

/** Every limited route, each several times: served (or 503 for billing reads), never 500. */
async function exerciseEveryLimitedRoute(t: OutageApp): Promise<void> {
  const team = await createSmsTeam(t.app);
  expect((await call(t.app, team.key, 'GET', '/v1/whoami')).statusCode).toBe(200);

  // Codes: unlimited (one past the recipient limit is still sent), each with its risk assessed.
  for (let i = 0; i <= SEND_LIMITS.recipient; i++) {
    const sent = await call(t.app, team.key, 'POST', '/v1/verify/send', { to: US, channel: 'sms', appName: 'Acme' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().risk.level).toBeDefined();
  }
  // Risk scoring still refuses: a premium-rate number is 422 with its reasons.
  const premium = await call(t.app, team.key, 'POST', '/v1/verify/send', {
    to: '+449098765400',
    channel: 'sms',
    appName: 'Acme',
  });
  expect(premium.statusCode, premium.body).toBe(422);
  expect(premium.json().risk.reasons.map((reason: { code: string }) => reason.code)).toContain('NON_MOBILE_NUMBER');

  // Webhook per-minute limits: each route goes on to its own answer.
  const created = await call(t.app, team.key, 'POST', '/v1/webhooks', {
    url: 'https://127.0.0.1/hook',
    eventTypes: ['email.sent'],
  });
  expect(created.statusCode, created.body).toBe(400); // a private address, refused after the limit
  for (const path of [
    '/v1/webhooks/wh_missing/test',
    '/v1/webhooks/wh_missing/rotate-secret',
    '/v1/webhooks/calls/whc_missing/retry',
  ]) {
    const response = await call(t.app, team.key, 'POST', path);
    expect([400, 404], `${path}: ${response.body}`).toContain(response.statusCode);
  }

  // Billing reads: the contract's 503, never 429 and never unlimited.
  for (const path of BILLING_READS) {
    for (let i = 0; i < 2; i++) {
      const response = await call(t.app, team.key, 'GET', path);
      expect(response.statusCode, path).toBe(503);
      expect(response.json().error.code).toBe('SERVICE_UNAVAILABLE');
    }
  }
}

/** One warning when the circuit opened, no error and nothing else at warn or above: no line per request. */
function expectOneOutageLine(logs: LogLine[]): void {
  expect(loudLines(logs).map((line) => line.msg)).toEqual([expect.stringContaining('circuit open')]);
  expect(outageLines(logs)).toHaveLength(1);
  expect(logs.filter((line) => line.err?.stack !== undefined)).toEqual([]);
}

let redis: ChildProcess | null = null;
let closingServer: net.Server | null = null;
afterEach(async () => {
  closingServer?.close();
  closingServer = null;
  const running = redis;
  redis = null;
  if (running && running.exitCode === null) {
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  }
});

describe('Redis unreachable', { timeout: 120_000 }, () => {
  let port: number;
  let t: OutageApp;
  beforeAll(async () => {
    port = await freePort();
  });
  afterAll(() => t?.close());

  it('nothing listens: limited routes serve (billing reads 503), one line; back, one line and limits again', async () => {
    t = await appWithRedisAt(port);
    await exerciseEveryLimitedRoute(t);
    expectOneOutageLine(t.logs);

    // Redis comes up on that port: the circuit closes by itself and the limits apply again.
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const team = await createSmsTeam(t.app);
    await expect
      .poll(async () => (await call(t.app, team.key, 'GET', '/v1/billing/pricing')).statusCode, {
        timeout: 30_000,
        interval: 100,
      })
      .toBe(200);
    const answers: number[] = [];
    for (let i = 0; i <= SEND_LIMITS.recipient; i++) {
      const to = '+14155552672';
      answers.push(
        (await call(t.app, team.key, 'POST', '/v1/verify/send', { to, channel: 'sms', appName: 'Acme' })).statusCode,
      );
    }
    expect(answers).toEqual([...Array<number>(SEND_LIMITS.recipient).fill(201), 429]);
    expect(outageLines(t.logs).map((line) => [line.level, line.msg])).toEqual([
      [WARN, expect.stringContaining('circuit open')],
      [30, expect.stringContaining('circuit closed')],
    ]);
    expect(loudLines(t.logs)).toHaveLength(1);
  });

  it('a server that accepts and closes every connection: the same answers, one line', async () => {
    closingServer = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closingServer!.listen(0, '127.0.0.1', resolve));
    const closing = await appWithRedisAt((closingServer.address() as net.AddressInfo).port);
    try {
      await exerciseEveryLimitedRoute(closing);
      expectOneOutageLine(closing.logs);
    } finally {
      await closing.close();
    }
  });
});

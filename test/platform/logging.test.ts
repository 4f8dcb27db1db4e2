// Logs: readable lines on a terminal, JSON lines otherwise, and the probes (/healthz, /readyz,
// /metrics) at debug so that a load balancer's polling does not bury the requests that matter.
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { buildDeps, createLogger } from '../../src/build-deps.ts';
import type { Deps } from '../../src/deps.ts';
import { formatLogLine } from '../../src/platform/log-lines.ts';
import { createMetricsRegistry } from '../../src/platform/metrics.ts';
import { discardTestDataDir, testConfig } from '../support/app.ts';
import { getTestDb } from '../support/db.ts';

const ESC = String.fromCharCode(27);
const NOON = Date.UTC(2026, 0, 2, 12, 34, 56, 789);

describe('a log line on a terminal', () => {
  it('reads time, level, message, then the fields as key=value, nested ones spelled out', () => {
    const line = JSON.stringify({
      level: 30,
      time: NOON,
      pid: 42,
      hostname: 'vm',
      reqId: 'r-1',
      res: { statusCode: 200 },
      queues: ['a', 'b'],
      note: 'two words',
      msg: 'request completed',
    });
    expect(formatLogLine(`${line}\n`, false)).toBe(
      '12:34:56.789 INFO  request completed reqId=r-1 res.statusCode=200 queues=["a","b"] note="two words"\n',
    );
  });

  it('colours the level only when asked', () => {
    const line = JSON.stringify({ level: 50, time: NOON, msg: 'failed' });
    expect(formatLogLine(line, true)).toBe('12:34:56.789 \x1b[31mERROR\x1b[0m failed\n');
    expect(formatLogLine(line, false)).toBe('12:34:56.789 ERROR failed\n');
  });

  it('puts an error on the line and its stack below it', () => {
    const line = JSON.stringify({
      level: 60,
      time: NOON,
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at here (x.ts:1:1)' },
      msg: 'start-up failed',
    });
    expect(formatLogLine(line, false)).toBe(
      '12:34:56.789 FATAL start-up failed err="Error: boom"\n    at here (x.ts:1:1)\n',
    );
  });

  it('passes a line that is not JSON through', () => {
    expect(formatLogLine('not json', false)).toBe('not json\n');
  });
});

describe('createLogger', () => {
  it('writes readable lines to a terminal', () => {
    const written: string[] = [];
    const logger = createLogger({ logLevel: 'info' }, { fd: 1, isTTY: true, write: (text) => written.push(text) });
    logger.info({ teamId: 7 }, 'hello');
    logger.debug('below the level');
    expect(written).toHaveLength(1);
    // Coloured unless NO_COLOR is set where the test runs.
    const plain = written[0]!.replaceAll(`${ESC}[32m`, '').replaceAll(`${ESC}[0m`, '');
    expect(plain).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}hello teamId=7\n$/);
  });

  it('hides the authorization header on a terminal as in JSON', () => {
    const written: string[] = [];
    const logger = createLogger({ logLevel: 'info' }, { fd: 1, isTTY: true, write: (text) => written.push(text) });
    logger.info({ req: { headers: { authorization: 'Bearer hk_secret' } } }, 'incoming request');
    expect(written.join('')).not.toContain('hk_secret');
    expect(written.join('')).toContain('[redacted]');
  });
});

describe('request log lines', () => {
  let deps: Deps;
  const lines: Array<{ level: number; msg: string; req?: { url: string } }> = [];
  const apps: Partial<Record<'info' | 'debug', FastifyInstance>> = {};

  beforeAll(async () => {
    const capture = { write: (line: string) => void lines.push(JSON.parse(line)) };
    deps = await buildDeps(testConfig(), { database: await getTestDb(), logger: pino({ level: 'silent' }) });
    for (const level of ['info', 'debug'] as const) {
      // A registry each: an app registers its request metrics once per registry.
      apps[level] = await buildApp({ ...deps, logger: pino({ level }, capture), metrics: createMetricsRegistry() });
    }
  });
  afterAll(async () => {
    for (const app of Object.values(apps)) await app.close();
    await deps.close();
    discardTestDataDir(deps.config);
  });

  async function requestLines(level: 'info' | 'debug', url: string) {
    lines.length = 0;
    await apps[level]!.inject({ method: 'GET', url });
    return lines.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed');
  }

  it.each(['/healthz', '/readyz', '/metrics'])('%s: none at info, both at debug', async (url) => {
    expect(await requestLines('info', url)).toEqual([]);
    const debug = await requestLines('debug', url);
    expect(debug.map((line) => [line.level, line.msg])).toEqual([
      [20, 'incoming request'],
      [20, 'request completed'],
    ]);
    expect(debug[0]!.req!.url).toBe(url);
  });

  it("a sign-in link's token is not logged", async () => {
    const info = await requestLines('info', '/sign-in/tok_secret-0123456789');
    expect(info[0]).toMatchObject({ level: 30, msg: 'incoming request', req: { url: '/sign-in/[redacted]' } });
    expect(JSON.stringify(lines)).not.toContain('tok_secret');
  });

  it('any other request at info', async () => {
    const info = await requestLines('info', '/api/v1/whoami');
    expect(info.map((line) => [line.level, line.msg])).toEqual([
      [30, 'incoming request'],
      [30, 'request completed'],
    ]);
  });
});

// Billing read limits: 60 a minute per team (429 with Retry-After), invoice reads 20 a minute per
// team within a ceiling shared by every team; counters unreachable (REDIS_URL set, Redis down): 503,
// never 429 and never unlimited; a read longer than the deadline is cancelled with 422.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BILLING_READS_PER_MINUTE,
  INVOICE_READS_PER_MINUTE,
  INVOICE_READS_PER_MINUTE_ALL_TEAMS,
} from '../../src/billing/read-limits.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { BILLING_READS, get, teamWith } from './support.ts';

describe('per-minute limits (memory counters)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it(`${BILLING_READS_PER_MINUTE} billing reads a minute per team, then 429 with Retry-After; other teams unaffected`, async () => {
    const team = await teamWith(t.app);
    const other = await teamWith(t.app);
    const paths = ['/v1/billing/transactions', '/v1/billing/usage', '/v1/billing/pricing', '/v1/billing/receipts'];
    for (let i = 0; i < BILLING_READS_PER_MINUTE; i++) {
      const response = await get(t.app, team.key, paths[i % paths.length]!);
      expect(response.statusCode, `read ${i + 1}`).toBe(200);
    }
    const refused = await get(t.app, team.key, '/v1/billing/subscription');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(t.app, other.key, '/v1/billing/usage')).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await get(t.app, team.key, '/v1/billing/usage')).statusCode).toBe(200);
  });

  it(`${INVOICE_READS_PER_MINUTE} invoice reads a minute per team`, async () => {
    t.clock.advance(60_000);
    const team = await teamWith(t.app);
    for (let i = 0; i < INVOICE_READS_PER_MINUTE; i++) {
      expect((await get(t.app, team.key, '/v1/billing/invoices')).statusCode, `read ${i + 1}`).toBe(200);
    }
    const refused = await get(t.app, team.key, '/v1/billing/invoices');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    // Other billing reads of the team still go (they count against the 60).
    expect((await get(t.app, team.key, '/v1/billing/usage')).statusCode).toBe(200);
  });

  it('the invoice ceiling is shared by every team', async () => {
    t.clock.advance(60_000);
    // Other teams' invoice reads this minute, up to the ceiling.
    for (let i = 0; i < INVOICE_READS_PER_MINUTE_ALL_TEAMS; i++) {
      await t.deps.rateLimiter.perMinuteGlobal('invoice-reads', INVOICE_READS_PER_MINUTE_ALL_TEAMS);
    }
    const team = await teamWith(t.app);
    const refused = await get(t.app, team.key, '/v1/billing/invoices/in_abc');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await get(t.app, team.key, '/v1/billing/transactions')).statusCode).toBe(200);
  });
});

describe('counters unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { redisUrl: 'redis://127.0.0.1:1' } });
  });
  afterAll(() => t.close());

  it('every billing read answers 503, never 429 and never unlimited; other routes still answer', async () => {
    const team = await teamWith(t.app);
    for (const path of BILLING_READS) {
      for (let i = 0; i < 3; i++) {
        const response = await get(t.app, team.key, path);
        expect(response.statusCode, path).toBe(503);
        expect(response.json().error.code).toBe('SERVICE_UNAVAILABLE');
      }
    }
    expect((await get(t.app, team.key, '/v1/whoami')).statusCode).toBe(200);
  });
});

describe('read deadline', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { billingReadTimeoutMs: 300 } });
  });
  afterAll(() => t.close());

  /** Holds an exclusive lock on `table` in another transaction while `read` runs, so the read waits. */
  async function whileLocked<T>(table: string, read: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let taken!: () => void;
    const lockTaken = new Promise<void>((resolve) => (taken = resolve));
    const holder = t.deps.db.transaction().execute(async (tx) => {
      await sql.raw(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`).execute(tx);
      taken();
      await held;
    });
    await lockTaken;
    try {
      return await read();
    } finally {
      release();
      await holder;
    }
  }

  it('a slow transactions, receipts, receipt or usage read is cancelled: 422; the next one answers', async () => {
    const team = await teamWith(t.app, { topUp: 100 });
    const receipt = (await get(t.app, team.key, '/v1/billing/transactions')).json().data[0].receiptReference;
    for (const [table, path] of [
      ['wallet_transactions', '/v1/billing/transactions'],
      ['wallet_transactions', '/v1/billing/receipts'],
      ['wallet_transactions', `/v1/billing/receipts/${receipt}`],
      ['team_daily_usage', '/v1/billing/usage'],
    ] as const) {
      const response = await whileLocked(table, () => get(t.app, team.key, path));
      expect(response.statusCode, path).toBe(422);
      expect(response.json().error.code).toBe('UNPROCESSABLE_ENTITY');
      expect((await get(t.app, team.key, path)).statusCode, path).toBe(200);
    }
  });
});

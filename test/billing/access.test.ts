// Every access row of the contract's table for every billing endpoint: FULL-admin reads (full or
// read only key made by a team admin today; FORBIDDEN for a member's key or a key with no recorded
// maker; SCOPE_DENIED for sandbox, sending and live AI; DOMAIN_PINNED for a domain-limited key);
// usage and pricing (full, read only and live AI keys, domain-limited included). And the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, type TestTeam } from '../support/factory.ts';
import { get, teamWith } from './support.ts';

let t: TestApp;
let team: TestTeam;
let domainId: number;
let receipt: string;
beforeAll(async () => {
  t = await createTestApp();
  team = await teamWith(t.app, { topUp: 1_000 });
  const domain = await t.app.inject({
    method: 'POST',
    url: '/api/v1/domains',
    headers: bearer(team.key),
    payload: { name: 'billing-access.example.com', region: 'us-east-1' },
  });
  domainId = domain.json().id;
  receipt = (await get(t.app, team.key, '/v1/billing/transactions')).json().data[0].receiptReference;
});
afterAll(() => t.close());

// Team without a card customer: invoices answer an empty list, an invoice id 404, without Stripe.
const adminReads = () => [
  '/v1/billing/transactions',
  '/v1/billing/receipts',
  `/v1/billing/receipts/${receipt}`,
  '/v1/billing/invoices',
  '/v1/billing/subscription',
];
const openReads = ['/v1/billing/usage', '/v1/billing/pricing'];

async function expectOutcome(key: string, path: string, outcome: 200 | string) {
  const response = await get(t.app, key, path);
  if (outcome === 200) {
    expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
  } else {
    expect(response.statusCode, `${path}: ${response.body}`).toBe(outcome === 'UNAUTHORIZED' ? 401 : 403);
    expect(response.json().error.code, path).toBe(outcome);
  }
}

describe('FULL-admin reads: transactions, receipts, receipt, invoices, subscription', () => {
  it('a full or read only key made by the owner or an admin: 200', async () => {
    const admin = await team.addMember('ADMIN');
    for (const [kind, memberId] of [
      ['full', team.ownerId],
      ['readonly', team.ownerId],
      ['full', admin],
      ['readonly', admin],
    ] as const) {
      const { key } = await team.makeKey(kind, { memberId });
      for (const path of adminReads()) await expectOutcome(key, path, 200);
    }
  });

  it('sandbox, sending and live AI keys: SCOPE_DENIED', async () => {
    for (const kind of ['sandbox', 'sending', 'live_ai'] as const) {
      const { key } = await team.makeKey(kind);
      for (const path of adminReads()) await expectOutcome(key, path, 'SCOPE_DENIED');
    }
  });

  it('a domain-limited full or read only key: DOMAIN_PINNED', async () => {
    for (const kind of ['full', 'readonly'] as const) {
      const { key } = await team.makeKey(kind, { domainId });
      for (const path of adminReads()) await expectOutcome(key, path, 'DOMAIN_PINNED');
    }
  });

  it("a member's key, and a key whose maker was never recorded: FORBIDDEN", async () => {
    const member = await team.addMember('MEMBER');
    const memberKeys = [
      await team.makeKey('full', { memberId: member }),
      await team.makeKey('readonly', { memberId: member }),
    ];
    const unrecorded = await team.makeKey('full', { memberId: null });
    for (const { key } of [...memberKeys, unrecorded]) {
      for (const path of adminReads()) await expectOutcome(key, path, 'FORBIDDEN');
    }
  });

  it('an admin demoted today loses access at once; promoted, gains it', async () => {
    const admin = await team.addMember('ADMIN');
    const { key } = await team.makeKey('readonly', { memberId: admin });
    await expectOutcome(key, '/v1/billing/transactions', 200);
    await team.setRole(admin, 'MEMBER');
    await expectOutcome(key, '/v1/billing/transactions', 'FORBIDDEN');
    await team.setRole(admin, 'ADMIN');
    await expectOutcome(key, '/v1/billing/transactions', 200);
  });

  it('no key or a bad key: 401', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/billing/transactions' });
    expect(response.statusCode).toBe(401);
    await expectOutcome(`hk_${'x'.repeat(43)}`, '/v1/billing/usage', 'UNAUTHORIZED');
  });
});

describe('usage and pricing', () => {
  it('full, read only and live AI keys, domain-limited ones and members included: 200', async () => {
    const member = await team.addMember('MEMBER');
    for (const kind of ['full', 'readonly', 'live_ai'] as const) {
      for (const options of [{}, { domainId }, { memberId: member }, { memberId: null }]) {
        const { key } = await team.makeKey(kind, options);
        for (const path of openReads) await expectOutcome(key, path, 200);
      }
    }
  });

  it('sandbox and sending keys: SCOPE_DENIED', async () => {
    for (const kind of ['sandbox', 'sending'] as const) {
      const { key } = await team.makeKey(kind);
      for (const path of openReads) await expectOutcome(key, path, 'SCOPE_DENIED');
    }
  });

  it('textSpendFormatted only for a key made by a team admin and not limited to one domain', async () => {
    const member = await team.addMember('MEMBER');
    const cases = [
      [{ memberId: team.ownerId }, true],
      [{ domainId }, false],
      [{ memberId: member }, false],
      [{ memberId: null }, false],
    ] as const;
    for (const [options, sees] of cases) {
      for (const kind of ['full', 'readonly', 'live_ai'] as const) {
        const { key } = await team.makeKey(kind, options);
        const usage = (await get(t.app, key, '/v1/billing/usage')).json();
        if (sees) expect(usage.thisMonth.textSpendFormatted, kind).toBe('$0.00');
        else expect(usage.thisMonth.textSpendFormatted, `${kind} ${JSON.stringify(options)}`).toBeNull();
      }
    }
  });
});

describe('audit log', () => {
  it('records every billing read (key id and name, maker, path and query, outcome), readable by an admin full key', async () => {
    const own = await teamWith(t.app, { topUp: 10 });
    const reader = await own.makeKey('readonly');
    const sending = await own.makeKey('sending');
    // The clock moves between reads, so newest first is a known order.
    for (const [key, path] of [
      [reader.key, '/v1/billing/transactions?limit=5&type=TOP_UP'],
      [sending.key, '/v1/billing/receipts'],
      [reader.key, '/v1/billing/transactions?limit=0'],
      [reader.key, '/v1/billing/usage'],
    ] as const) {
      await get(t.app, key, path);
      t.clock.advance(1000);
    }
    // Written after each answer: poll until the four are there.
    let entries: Record<string, unknown>[] = [];
    for (let i = 0; i < 50 && entries.length < 4; i++) {
      entries = (await get(t.app, own.key, '/v1/audit-log?limit=100')).json().data;
      if (entries.length < 4) await new Promise((r) => setTimeout(r, 20));
    }
    expect(entries).toHaveLength(4);
    expect(entries[3]).toMatchObject({
      key: { id: reader.id, kind: 'readonly', memberId: own.ownerId },
      method: 'GET',
      path: '/v1/billing/transactions',
      query: 'limit=5&type=TOP_UP',
      status: 200,
      errorCode: null,
    });
    expect(entries[2]).toMatchObject({ key: { id: sending.id }, status: 403, errorCode: 'SCOPE_DENIED' });
    expect(entries[1]).toMatchObject({ status: 400, query: 'limit=0' });
    expect(entries[0]).toMatchObject({ path: '/v1/billing/usage', status: 200 });
    // Paging with a cursor.
    const first = (await get(t.app, own.key, '/v1/audit-log?limit=3')).json();
    expect(first.data).toHaveLength(3);
    const rest = (
      await get(t.app, own.key, `/v1/audit-log?limit=3&cursor=${encodeURIComponent(first.nextCursor)}`)
    ).json();
    expect(rest.data.map((e: { id: string }) => e.id)).toEqual([entries[3]!.id]);
    // Another team sees none of them.
    const other = await teamWith(t.app);
    expect((await get(t.app, other.key, '/v1/audit-log')).json().data).toEqual([]);
  });

  it('only a full access key made by a team admin reads it', async () => {
    const own = await teamWith(t.app);
    const member = await own.addMember('MEMBER');
    await expectOutcome((await own.makeKey('readonly')).key, '/v1/audit-log', 'SCOPE_DENIED');
    await expectOutcome((await own.makeKey('full', { memberId: member })).key, '/v1/audit-log', 'FORBIDDEN');
    await expectOutcome(own.key, '/v1/audit-log', 200);
  });
});

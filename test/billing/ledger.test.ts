// GET /v1/billing/transactions, /receipts and /receipts/{reference}: chained balances after a mix of
// every row kind, formatting per currency, filters, cursors, empty wallets and other teams.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';
import { adminCall, appendCharges, get, getOk, smsCharge, smsRelease, teamWith, topUp } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const tick = (ms = 1000) => t.clock.advance(ms);

interface Tx {
  id: string;
  type: string;
  amountMinor: number;
  amountFormatted: string;
  balanceAfterMinor: number;
  balanceAfterFormatted: string;
  reference: string;
  receiptReference: string | null;
  createdAt: string;
}

async function allTransactions(key: string, query = ''): Promise<Tx[]> {
  const rows: Tx[] = [];
  let cursor: string | null = null;
  do {
    const sep = query === '' ? '?' : `?${query}&`;
    const page = await getOk(
      t.app,
      key,
      `/v1/billing/transactions${sep}limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    rows.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

describe('transactions', () => {
  it('a team without a wallet gets {currency: null, data: []}', async () => {
    const team = await createTeam(t.app);
    expect(await getOk(t.app, team.key, '/v1/billing/transactions')).toEqual({
      currency: null,
      data: [],
      nextCursor: null,
    });
    expect(await getOk(t.app, team.key, '/v1/billing/receipts')).toEqual({
      currency: null,
      data: [],
      nextCursor: null,
    });
  });

  it('chains balanceAfter exactly over top-ups, SMS charges and releases, fees, refunds, adjustments, reversals', async () => {
    const team = await teamWith(t.app);
    const first = await topUp(t.app, team.id, 10_000);
    tick();
    const c1 = await smsCharge(t, team.id, 'sms_1', 125);
    tick();
    await smsCharge(t, team.id, 'sms_2', 125);
    tick();
    await smsRelease(t, team.id, c1.id);
    tick();
    const sender = await adminCall(t.app, 'POST', `/teams/${team.id}/sender-ids`, {
      senderId: 'Herald',
      country: 'NG',
      feeMinor: 500,
    });
    expect(sender.statusCode, sender.body).toBe(201);
    tick();
    const refunded = await adminCall(t.app, 'DELETE', `/teams/${team.id}/sender-ids/${sender.json().id}`, {
      refund: true,
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    tick();
    const adj = await adminCall(t.app, 'POST', `/teams/${team.id}/wallet/adjustments`, {
      amountMinor: -250,
      description: 'correction',
    });
    expect(adj.statusCode, adj.body).toBe(201);
    tick();
    await topUp(t.app, team.id, 1_000_000);
    tick();
    const rev = await adminCall(t.app, 'POST', `/teams/${team.id}/wallet/reversals`, { transactionId: first.id });
    expect(rev.statusCode, rev.body).toBe(201);

    const rows = await allTransactions(team.key);
    expect(rows.map((r) => r.type)).toEqual([
      'REVERSAL',
      'TOP_UP',
      'ADJUSTMENT',
      'SENDER_ID_REFUND',
      'SENDER_ID_FEE',
      'SMS_RELEASE',
      'SMS_CHARGE',
      'SMS_CHARGE',
      'TOP_UP',
    ]);
    let running = 0;
    for (const row of [...rows].reverse()) {
      running += row.amountMinor;
      expect(row.balanceAfterMinor, row.type).toBe(running);
    }
    expect(running).toBe(10_000 - 125 - 125 + 125 - 500 + 500 - 250 + 1_000_000 - 10_000);
    expect(rows[0]).toMatchObject({ amountMinor: -10_000, amountFormatted: '-$100.00' });
    expect(rows[1]).toMatchObject({ amountMinor: 1_000_000, amountFormatted: '$10,000.00' });
    expect(rows[0]!.balanceAfterFormatted).toBe('$9,996.25');
    // Only top-ups and fees have receipts among these kinds.
    expect(rows.filter((r) => r.receiptReference !== null).map((r) => r.type)).toEqual([
      'TOP_UP',
      'SENDER_ID_FEE',
      'TOP_UP',
    ]);
  });

  it('formats NGN and KES with their symbols and grouping', async () => {
    const ngn = await teamWith(t.app, { currency: 'NGN', topUp: 123_456_789 });
    const kes = await teamWith(t.app, { currency: 'KES', topUp: 123_456_789 });
    const n = await getOk(t.app, ngn.key, '/v1/billing/transactions');
    expect(n.currency).toBe('NGN');
    expect(n.data[0]).toMatchObject({ amountFormatted: '₦1,234,567.89', balanceAfterFormatted: '₦1,234,567.89' });
    const k = await getOk(t.app, kes.key, '/v1/billing/transactions');
    expect(k.currency).toBe('KES');
    expect(k.data[0].amountFormatted).toMatch(/^KSh\s?1,234,567\.89$/);
    const receipt = (await getOk(t.app, kes.key, '/v1/billing/receipts')).data[0];
    expect(receipt).toMatchObject({ currency: 'KES', direction: 'in', amountMinor: 123_456_789 });
    expect(receipt.amountFormatted).toMatch(/^KSh\s?1,234,567\.89$/);
  });

  it('filters by type, from (inclusive) and to (exclusive)', async () => {
    const team = await teamWith(t.app);
    const times: string[] = [];
    for (let i = 0; i < 4; i++) {
      const row = await topUp(t.app, team.id, 100 + i);
      times.push(row.createdAt);
      tick(60_000);
      await smsCharge(t, team.id, `f_${i}`, 1);
      tick(60_000);
    }
    const topUps = await allTransactions(team.key, 'type=TOP_UP');
    expect(topUps.map((r) => r.amountMinor)).toEqual([103, 102, 101, 100]);
    const charges = await allTransactions(team.key, 'type=SMS_CHARGE');
    expect(charges).toHaveLength(4);
    const ranged = await allTransactions(
      team.key,
      `type=TOP_UP&from=${encodeURIComponent(times[1]!)}&to=${encodeURIComponent(times[3]!)}`,
    );
    expect(ranged.map((r) => r.amountMinor)).toEqual([102, 101]);
    const all = await allTransactions(team.key, `from=${encodeURIComponent(times[3]!)}`);
    expect(all.map((r) => r.type)).toEqual(['SMS_CHARGE', 'TOP_UP']);
  });

  it('answers 400 for a bad type, date, limit, or a cursor from another list, filter or team', async () => {
    const team = await teamWith(t.app, { topUp: 100 });
    await topUp(t.app, team.id, 100);
    const other = await teamWith(t.app, { topUp: 100 });
    await topUp(t.app, other.id, 100);
    for (const query of ['type=NOPE', 'from=yesterday', 'to=2026-13-01', 'limit=0', 'limit=101', 'limit=abc']) {
      const response = await get(t.app, team.key, `/v1/billing/transactions?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('BAD_REQUEST');
    }
    expect((await get(t.app, team.key, '/v1/billing/transactions?limit=1')).statusCode).toBe(200);
    expect((await get(t.app, team.key, '/v1/billing/transactions?limit=100')).statusCode).toBe(200);
    const from = '2026-01-02T00:00:00Z';
    const bad = await get(t.app, team.key, `/v1/billing/transactions?from=${from}&to=2026-01-01T00:00:00Z`);
    expect(bad.statusCode).toBe(400);

    const page = await getOk(t.app, team.key, '/v1/billing/transactions?limit=1');
    const cursor = encodeURIComponent(page.nextCursor);
    expect((await get(t.app, team.key, `/v1/billing/transactions?limit=1&cursor=${cursor}`)).statusCode).toBe(200);
    expect((await get(t.app, team.key, `/v1/billing/receipts?cursor=${cursor}`)).statusCode).toBe(400);
    expect((await get(t.app, team.key, `/v1/billing/transactions?type=TOP_UP&cursor=${cursor}`)).statusCode).toBe(400);
    expect((await get(t.app, other.key, `/v1/billing/transactions?limit=1&cursor=${cursor}`)).statusCode).toBe(400);
    expect((await get(t.app, team.key, '/v1/billing/transactions?cursor=forged.cursor')).statusCode).toBe(400);
  });
});

describe('receipts', () => {
  it('lists rows with receipts, newest first, with sign and direction, paging to the end', async () => {
    const team = await teamWith(t.app);
    await topUp(t.app, team.id, 5_000);
    tick();
    for (let i = 0; i < 5; i++) {
      await smsCharge(t, team.id, `r_${i}`, 10);
      tick();
    }
    const fee = await adminCall(t.app, 'POST', `/teams/${team.id}/sender-ids`, {
      senderId: 'Shop',
      country: 'KE',
      feeMinor: 300,
    });
    expect(fee.statusCode).toBe(201);
    tick();
    await topUp(t.app, team.id, 700);
    const seen: { type: string; amountMinor: number; direction: string; amountFormatted: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = await getOk(
        t.app,
        team.key,
        `/v1/billing/receipts?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.currency).toBe('USD');
      expect(page.data.length).toBeLessThanOrEqual(1);
      seen.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toMatchObject([
      { type: 'TOP_UP', amountMinor: 700, direction: 'in', amountFormatted: '$7.00' },
      { type: 'SENDER_ID_FEE', amountMinor: -300, direction: 'out', amountFormatted: '$3.00' },
      { type: 'TOP_UP', amountMinor: 5_000, direction: 'in', amountFormatted: '$50.00' },
    ]);
  });

  it('reads one receipt by reference with teamName; 404 for another team, a row without a receipt, unknown', async () => {
    const team = await teamWith(t.app);
    const row = await topUp(t.app, team.id, 2_500);
    const receipt = await getOk(t.app, team.key, `/v1/billing/receipts/${row.receiptReference}`);
    expect(receipt).toMatchObject({
      reference: row.receiptReference,
      type: 'TOP_UP',
      amountMinor: 2_500,
      amountFormatted: '$25.00',
      direction: 'in',
      balanceAfterMinor: 2_500,
      currency: 'USD',
      invoiceNumber: null,
    });
    expect(receipt.teamName).toMatch(/^Team /);
    const other = await teamWith(t.app, { topUp: 100 });
    const foreign = await get(t.app, other.key, `/v1/billing/receipts/${row.receiptReference}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('NOT_FOUND');
    const charge = await smsCharge(t, team.id, 'no_receipt', 5);
    expect((await get(t.app, team.key, `/v1/billing/receipts/${charge.reference}`)).statusCode).toBe(404);
    expect((await get(t.app, team.key, `/v1/billing/receipts/${charge.id}`)).statusCode).toBe(404);
    expect((await get(t.app, team.key, '/v1/billing/receipts/RCT-000000000000')).statusCode).toBe(404);
  });

  it('a page looks at a bounded window of the ledger: fewer receipts than the limit and still a nextCursor', async () => {
    const team = await teamWith(t.app);
    await topUp(t.app, team.id, 1_000_000);
    // More SMS charges than one receipts page looks at, appended in one statement (seq and balance chained).
    await appendCharges(t, team.id, 510);
    const first = await getOk(t.app, team.key, '/v1/billing/receipts?limit=5');
    expect(first.data).toHaveLength(0);
    expect(first.nextCursor).not.toBeNull();
    const second = await getOk(
      t.app,
      team.key,
      `/v1/billing/receipts?limit=5&cursor=${encodeURIComponent(first.nextCursor)}`,
    );
    expect(second.data).toMatchObject([{ type: 'TOP_UP', amountMinor: 1_000_000 }]);
    expect(second.nextCursor).toBeNull();
  });
});

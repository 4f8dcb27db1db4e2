// Admin wallet operations (operator.md): top-ups idempotent by reference with receipts, adjustments at
// the zero edge, reversals once, field validation at each edge, other teams' rows invisible.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';
import { adminCall, balance, expectBalancedLedger, ledger } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, body: unknown) => adminCall(t.app, 'POST', url, body);

describe('wallet top-ups', () => {
  it('credits the wallet in the team currency with a receipt, in the contract shape', async () => {
    const team = await createTeam(t.app);
    const empty = await adminCall(t.app, 'GET', `/teams/${team.id}/wallet`);
    expect(empty.json()).toEqual({ currency: null, balanceMinor: 0, balanceFormatted: null, updatedAt: null });
    const response = await post(`/teams/${team.id}/wallet/top-ups`, {
      amountMinor: 150_075,
      reference: 'bank-001',
      description: 'Bank transfer',
    });
    expect(response.statusCode, response.body).toBe(201);
    const row = response.json();
    expect(row).toEqual({
      id: expect.stringMatching(/^wtx_/),
      type: 'TOP_UP',
      amountMinor: 150_075,
      amountFormatted: '$1,500.75',
      balanceAfterMinor: 150_075,
      balanceAfterFormatted: '$1,500.75',
      reference: 'bank-001',
      customerDescription: 'Bank transfer',
      receiptReference: expect.stringMatching(/^RCT-[0-9A-Z]{12}$/),
      createdAt: expect.any(String),
    });
    const wallet = (await adminCall(t.app, 'GET', `/teams/${team.id}/wallet`)).json();
    expect(wallet).toMatchObject({ currency: 'USD', balanceMinor: 150_075, balanceFormatted: '$1,500.75' });
  });

  it('uses the team currency (NGN) and then refuses to change it', async () => {
    const team = await createTeam(t.app);
    expect((await adminCall(t.app, 'PATCH', `/teams/${team.id}`, { currency: 'NGN' })).statusCode).toBe(200);
    const row = (await post(`/teams/${team.id}/wallet/top-ups`, { amountMinor: 50_000 })).json();
    expect(row.amountFormatted).toBe('₦500.00');
    expect(row.reference).toBe(row.id); // no reference given: the row's own id
    const change = await adminCall(t.app, 'PATCH', `/teams/${team.id}`, { currency: 'USD' });
    expect(change.statusCode).toBe(400);
    expect(change.json().error.message).toContain('currency');
    expect((await adminCall(t.app, 'PATCH', `/teams/${team.id}`, { currency: 'NGN' })).statusCode).toBe(200);
  });

  it('is idempotent by reference: the same reference returns the first row and adds nothing', async () => {
    const team = await createTeam(t.app);
    const first = await post(`/teams/${team.id}/wallet/top-ups`, { amountMinor: 1000, reference: 'r-1' });
    const again = await post(`/teams/${team.id}/wallet/top-ups`, { amountMinor: 999, reference: 'r-1' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    // In parallel too: one row.
    const parallel = await Promise.all(
      Array.from({ length: 6 }, () => post(`/teams/${team.id}/wallet/top-ups`, { amountMinor: 5, reference: 'r-2' })),
    );
    expect(new Set(parallel.map((r) => r.json().id)).size).toBe(1);
    const rows = await expectBalancedLedger(t.app, team.id);
    expect(rows.map((r) => [r.type, r.amountMinor])).toEqual([
      ['TOP_UP', 1000],
      ['TOP_UP', 5],
    ]);
    expect(await balance(t.app, team.id)).toBe(1005);
  });

  it('validates amountMinor, reference and description at their edges', async () => {
    const team = await createTeam(t.app);
    const url = `/teams/${team.id}/wallet/top-ups`;
    for (const amountMinor of [0, -1, 1.5, '100', Number.MAX_SAFE_INTEGER + 1, null]) {
      const response = await post(url, { amountMinor });
      expect(response.statusCode, String(amountMinor)).toBe(400);
      expect(response.json().error.message).toContain('amountMinor');
    }
    expect((await post(url, {})).statusCode).toBe(400);
    expect((await post(url, { amountMinor: 1, reference: 'x'.repeat(201) })).statusCode).toBe(400);
    expect((await post(url, { amountMinor: 1, description: 'x'.repeat(501) })).statusCode).toBe(400);
    expect(await ledger(t.app, team.id)).toEqual([]);
    expect(
      (await post(url, { amountMinor: 1, reference: 'x'.repeat(200), description: 'd'.repeat(500) })).statusCode,
    ).toBe(201);
    // The largest balance keeps every amount exact in JSON; past it: 400, nothing written.
    expect((await post(url, { amountMinor: Number.MAX_SAFE_INTEGER - 2 })).statusCode).toBe(201);
    const atCap = await post(url, { amountMinor: 1, reference: 'cap' });
    expect(atCap.statusCode).toBe(201);
    expect(atCap.json().balanceAfterMinor).toBe(Number.MAX_SAFE_INTEGER);
    const past = await post(url, { amountMinor: 1 });
    expect(past.statusCode).toBe(400);
    expect(await balance(t.app, team.id)).toBe(Number.MAX_SAFE_INTEGER);
    await expectBalancedLedger(t.app, team.id);
  });

  it('answers 404 for a team that does not exist', async () => {
    const response = await post('/teams/999999/wallet/top-ups', { amountMinor: 1 });
    expect(response.statusCode).toBe(404);
    expect((await adminCall(t.app, 'GET', '/teams/999999/wallet')).statusCode).toBe(404);
  });
});

describe('wallet adjustments', () => {
  it('credits and debits down to exactly zero; one past zero is 400 with nothing written', async () => {
    const team = await createTeam(t.app);
    const url = `/teams/${team.id}/wallet/adjustments`;
    const credit = await post(url, { amountMinor: 300, description: 'goodwill' });
    expect(credit.statusCode, credit.body).toBe(201);
    expect(credit.json()).toMatchObject({ type: 'ADJUSTMENT', amountMinor: 300, receiptReference: null });
    const tooMuch = await post(url, { amountMinor: -301, description: 'too much' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.code).toBe('BAD_REQUEST');
    expect(await balance(t.app, team.id)).toBe(300);
    const exact = await post(url, { amountMinor: -300, description: 'to zero' });
    expect(exact.statusCode).toBe(201);
    expect(exact.json()).toMatchObject({ amountMinor: -300, amountFormatted: '-$3.00', balanceAfterMinor: 0 });
    expect((await post(url, { amountMinor: -1, description: 'below' })).statusCode).toBe(400);
    const rows = await expectBalancedLedger(t.app, team.id);
    expect(rows).toHaveLength(2);
  });

  it('a debit on a team with no wallet is 400 and opens none', async () => {
    const team = await createTeam(t.app);
    expect((await post(`/teams/${team.id}/wallet/adjustments`, { amountMinor: -1, description: 'x' })).statusCode).toBe(
      400,
    );
    expect((await adminCall(t.app, 'GET', `/teams/${team.id}/wallet`)).json().currency).toBeNull();
  });

  it('validates amountMinor (signed, not 0) and a required description', async () => {
    const team = await createTeam(t.app);
    const url = `/teams/${team.id}/wallet/adjustments`;
    for (const body of [
      { amountMinor: 0, description: 'zero' },
      { amountMinor: 2.5, description: 'fraction' },
      { amountMinor: -Number.MAX_SAFE_INTEGER - 1, description: 'unsafe' },
      { amountMinor: 10 },
      { amountMinor: 10, description: '' },
      { amountMinor: 10, description: 'x'.repeat(501) },
    ]) {
      expect((await post(url, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await ledger(t.app, team.id)).toEqual([]);
  });
});

describe('wallet reversals', () => {
  it('reverses a top-up once; the second time is 409', async () => {
    const team = await createTeam(t.app);
    const topUp = (await post(`/teams/${team.id}/wallet/top-ups`, { amountMinor: 700, reference: 'pay-9' })).json();
    const reversal = await post(`/teams/${team.id}/wallet/reversals`, { transactionId: topUp.id });
    expect(reversal.statusCode, reversal.body).toBe(201);
    expect(reversal.json()).toMatchObject({
      type: 'REVERSAL',
      amountMinor: -700,
      balanceAfterMinor: 0,
      reference: topUp.id,
    });
    const twice = await post(`/teams/${team.id}/wallet/reversals`, { transactionId: topUp.id });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('CONFLICT');
    // A reversal itself cannot be reversed.
    expect((await post(`/teams/${team.id}/wallet/reversals`, { transactionId: reversal.json().id })).statusCode).toBe(
      400,
    );
    await expectBalancedLedger(t.app, team.id);
  });

  it('reverses a debit adjustment by crediting it back', async () => {
    const team = await createTeam(t.app);
    await post(`/teams/${team.id}/wallet/top-ups`, { amountMinor: 100 });
    const debit = (await post(`/teams/${team.id}/wallet/adjustments`, { amountMinor: -40, description: 'fee' })).json();
    const reversal = (await post(`/teams/${team.id}/wallet/reversals`, { transactionId: debit.id })).json();
    expect(reversal).toMatchObject({ amountMinor: 40, balanceAfterMinor: 100 });
    await expectBalancedLedger(t.app, team.id);
  });

  it('refuses (400) a reversal the balance no longer covers, writing nothing', async () => {
    const team = await createTeam(t.app);
    const topUp = (await post(`/teams/${team.id}/wallet/top-ups`, { amountMinor: 100 })).json();
    await post(`/teams/${team.id}/wallet/adjustments`, { amountMinor: -1, description: 'spent' });
    const response = await post(`/teams/${team.id}/wallet/reversals`, { transactionId: topUp.id });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('below zero');
    expect(await ledger(t.app, team.id)).toHaveLength(2);
  });

  it("answers 404 for another team's transaction or an unknown id, and 400 without one", async () => {
    const mine = await createTeam(t.app);
    const other = await createTeam(t.app);
    await post(`/teams/${mine.id}/wallet/top-ups`, { amountMinor: 100 });
    const theirs = (await post(`/teams/${other.id}/wallet/top-ups`, { amountMinor: 100 })).json();
    const response = await post(`/teams/${mine.id}/wallet/reversals`, { transactionId: theirs.id });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
    expect((await post(`/teams/${mine.id}/wallet/reversals`, { transactionId: 'wtx_nope' })).statusCode).toBe(404);
    expect((await post(`/teams/${mine.id}/wallet/reversals`, {})).statusCode).toBe(400);
    expect((await post(`/teams/${mine.id}/wallet/reversals`, { transactionId: 'x'.repeat(65) })).statusCode).toBe(400);
    expect(await balance(t.app, other.id)).toBe(100);
    expect((await ledger(t.app, mine.id)).map((r) => r.type)).toEqual(['TOP_UP']);
  });
});

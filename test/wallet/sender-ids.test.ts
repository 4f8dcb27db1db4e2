// Admin sender IDs (operator.md): the fee is charged at once (402 and nothing written when the wallet
// cannot pay), delete with or without refund, validation at each edge, other teams' rows invisible,
// and parallel creations against a wallet that covers half of the fees.
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
const list = async (teamId: number) => (await adminCall(t.app, 'GET', `/teams/${teamId}/sender-ids`)).json();

async function fundedTeam(amountMinor: number) {
  const team = await createTeam(t.app);
  if (amountMinor > 0) await post(`/teams/${team.id}/wallet/top-ups`, { amountMinor });
  return team;
}

describe('sender IDs', () => {
  it('creates one approved, charging its fee with a receipt', async () => {
    const team = await fundedTeam(5000);
    const response = await post(`/teams/${team.id}/sender-ids`, {
      senderId: 'Acme Shop',
      country: 'ng',
      feeMinor: 2000,
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();
    expect(created).toEqual({
      id: expect.stringMatching(/^sid_/),
      senderId: 'Acme Shop',
      country: 'NG',
      status: 'APPROVED',
      createdAt: expect.any(String),
    });
    expect(await list(team.id)).toEqual([created]);
    const rows = await expectBalancedLedger(t.app, team.id);
    expect(rows.at(-1)).toMatchObject({
      type: 'SENDER_ID_FEE',
      amountMinor: -2000,
      balanceAfterMinor: 3000,
      reference: created.id,
      receiptReference: expect.stringMatching(/^RCT-/),
    });
  });

  it('with no fee needs no wallet', async () => {
    const team = await createTeam(t.app);
    const response = await post(`/teams/${team.id}/sender-ids`, { senderId: '+2348031234567', country: 'NG' });
    expect(response.statusCode, response.body).toBe(201);
    expect(await ledger(t.app, team.id)).toEqual([]);
  });

  it('answers 402 when the wallet cannot pay, with nothing written', async () => {
    const team = await fundedTeam(1999);
    const response = await post(`/teams/${team.id}/sender-ids`, { senderId: 'Acme', country: 'KE', feeMinor: 2000 });
    expect(response.statusCode).toBe(402);
    expect(response.json().error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await list(team.id)).toEqual([]);
    expect(await balance(t.app, team.id)).toBe(1999);
    expect(await ledger(t.app, team.id)).toHaveLength(1);
    // A team with no wallet at all: 402 too.
    const broke = await createTeam(t.app);
    expect(
      (await post(`/teams/${broke.id}/sender-ids`, { senderId: 'Acme', country: 'KE', feeMinor: 1 })).statusCode,
    ).toBe(402);
  });

  it('the same sender ID twice for one country is 409; another country is fine', async () => {
    const team = await fundedTeam(100);
    expect(
      (await post(`/teams/${team.id}/sender-ids`, { senderId: 'Acme', country: 'KE', feeMinor: 10 })).statusCode,
    ).toBe(201);
    const again = await post(`/teams/${team.id}/sender-ids`, { senderId: 'ACME', country: 'KE', feeMinor: 10 });
    expect(again.statusCode).toBe(409);
    expect(await balance(t.app, team.id)).toBe(90); // the second fee rolled back with it
    expect((await post(`/teams/${team.id}/sender-ids`, { senderId: 'Acme', country: 'NG' })).statusCode).toBe(201);
  });

  it('deletes without refund (fee kept) and with refund (fee back, once)', async () => {
    const team = await fundedTeam(1000);
    const a = (await post(`/teams/${team.id}/sender-ids`, { senderId: 'Alpha', country: 'KE', feeMinor: 300 })).json();
    const b = (await post(`/teams/${team.id}/sender-ids`, { senderId: 'Beta', country: 'KE', feeMinor: 200 })).json();
    const kept = await adminCall(t.app, 'DELETE', `/teams/${team.id}/sender-ids/${a.id}`);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toEqual({ id: a.id, deleted: true });
    expect(await balance(t.app, team.id)).toBe(500);
    const refunded = await adminCall(t.app, 'DELETE', `/teams/${team.id}/sender-ids/${b.id}`, { refund: true });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(await balance(t.app, team.id)).toBe(700);
    expect(
      (await adminCall(t.app, 'DELETE', `/teams/${team.id}/sender-ids/${b.id}`, { refund: true })).statusCode,
    ).toBe(404);
    expect(await list(team.id)).toEqual([]);
    const rows = await expectBalancedLedger(t.app, team.id);
    expect(rows.map((r) => [r.type, r.amountMinor])).toEqual([
      ['TOP_UP', 1000],
      ['SENDER_ID_FEE', -300],
      ['SENDER_ID_FEE', -200],
      ['SENDER_ID_REFUND', 200],
    ]);
    // Deleted, the name can be added again.
    expect((await post(`/teams/${team.id}/sender-ids`, { senderId: 'Beta', country: 'KE' })).statusCode).toBe(201);
    expect((await adminCall(t.app, 'DELETE', `/teams/${team.id}/sender-ids/x`, { refund: 'yes' })).statusCode).toBe(
      400,
    );
  });

  it("another team's sender ID is invisible: 404 on delete, absent from the list", async () => {
    const owner = await fundedTeam(0);
    const other = await createTeam(t.app);
    const created = (await post(`/teams/${owner.id}/sender-ids`, { senderId: 'Mine', country: 'US' })).json();
    expect((await adminCall(t.app, 'DELETE', `/teams/${other.id}/sender-ids/${created.id}`)).statusCode).toBe(404);
    expect(await list(other.id)).toEqual([]);
    expect(await list(owner.id)).toHaveLength(1);
    expect((await adminCall(t.app, 'GET', '/teams/999999/sender-ids')).statusCode).toBe(404);
  });

  it('validates senderId, country and feeMinor at their edges', async () => {
    const team = await createTeam(t.app);
    const url = `/teams/${team.id}/sender-ids`;
    const ok = ['A', 'Abcdefghijk', '1 2 3 4 5 A', 'A1', '+254712345678', '+14155552671'];
    for (const senderId of ok) {
      const response = await post(url, { senderId, country: 'KE' });
      expect(response.statusCode, `${senderId}: ${response.body}`).toBe(201);
    }
    const refused = [
      '',
      'Abcdefghijkl',
      '12345',
      '   ',
      'Acme-Shop',
      'Acmé',
      '+0123',
      '+2547123456789999',
      '254712345678',
    ];
    for (const senderId of refused) {
      const response = await post(url, { senderId, country: 'KE' });
      expect(response.statusCode, senderId).toBe(400);
      expect(response.json().error.message).toContain('senderId');
    }
    for (const country of ['', 'K', 'KEN', 'K1', 'ZZ', 'XX']) {
      const response = await post(url, { senderId: 'Zed', country });
      expect(response.statusCode, country).toBe(400);
      expect(response.json().error.message).toContain('country');
    }
    for (const feeMinor of [-1, 0.5, '10', Number.MAX_SAFE_INTEGER + 1]) {
      const response = await post(url, { senderId: 'Zed', country: 'KE', feeMinor });
      expect(response.statusCode, String(feeMinor)).toBe(400);
      expect(response.json().error.message).toContain('feeMinor');
    }
    expect((await post(url, { country: 'KE' })).statusCode).toBe(400);
    expect((await post(url, { senderId: 'Zed' })).statusCode).toBe(400);
    expect(await list(team.id)).toHaveLength(ok.length);
  });

  it('parallel creations against a wallet that covers half the fees: exactly half succeed', async () => {
    const fee = 250;
    const n = 12;
    const team = await fundedTeam((fee * n) / 2);
    const responses = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        post(`/teams/${team.id}/sender-ids`, { senderId: `Brand ${i}`, country: 'NG', feeMinor: fee }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(n / 2);
    expect(statuses.filter((s) => s === 402)).toHaveLength(n / 2);
    expect(await list(team.id)).toHaveLength(n / 2);
    expect(await balance(t.app, team.id)).toBe(0);
    const rows = await expectBalancedLedger(t.app, team.id);
    expect(rows.filter((r) => r.type === 'SENDER_ID_FEE')).toHaveLength(n / 2);
  });
});

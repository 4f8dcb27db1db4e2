// charge and release, the module other areas call with their own transaction: N parallel charges
// against a wallet that covers exactly half of them charge exactly half, refuse the rest with 402 and
// leave the ledger balanced; a release gives a charge back once; a failed caller transaction leaves
// nothing behind. Runs on PGlite and, with DATABASE_URL, on PostgreSQL (real parallel connections).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/platform/errors.ts';
import { charge, release, walletTransactionView } from '../../src/wallet/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';
import { adminCall, balance, expectBalancedLedger, ledger } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function fundedTeam(amountMinor: number) {
  const team = await createTeam(t.app);
  const response = await adminCall(t.app, 'POST', `/teams/${team.id}/wallet/top-ups`, { amountMinor });
  expect(response.statusCode, response.body).toBe(201);
  return team;
}

const smsCharge = (teamId: number, reference: string, amountMinor: bigint) =>
  t.deps.db
    .transaction()
    .execute((tx) =>
      charge(tx, teamId, { amountMinor, type: 'SMS_CHARGE', reference, description: 'SMS', at: t.clock.now() }),
    );

describe('charge', () => {
  it('N parallel charges against a wallet for N/2: exactly N/2 succeed, the rest 402, balance 0', async () => {
    const n = 40;
    const price = 7n;
    const team = await fundedTeam(Number(price) * (n / 2));
    const outcomes = await Promise.allSettled(
      Array.from({ length: n }, (_, i) => smsCharge(team.id, `sms_${i}`, price)),
    );
    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(succeeded).toHaveLength(n / 2);
    expect(refused).toHaveLength(n / 2);
    for (const error of refused) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 402, code: 'INSUFFICIENT_BALANCE' });
    }
    expect(await balance(t.app, team.id)).toBe(0);
    const rows = await expectBalancedLedger(t.app, team.id);
    expect(rows.filter((r) => r.type === 'SMS_CHARGE')).toHaveLength(n / 2);
  });

  it('refuses with 402 and writes nothing when the balance is one short; exact balance is fine', async () => {
    const team = await fundedTeam(100);
    await expect(smsCharge(team.id, 'sms_a', 101n)).rejects.toMatchObject({ status: 402 });
    expect(await ledger(t.app, team.id)).toHaveLength(1);
    const row = await smsCharge(team.id, 'sms_b', 100n);
    expect(walletTransactionView(row)).toMatchObject({
      type: 'SMS_CHARGE',
      amountMinor: -100,
      balanceAfterMinor: 0,
      reference: 'sms_b',
      receiptReference: null,
    });
    await expect(smsCharge(team.id, 'sms_c', 1n)).rejects.toMatchObject({ status: 402 });
    const broke = await createTeam(t.app); // no wallet at all
    await expect(smsCharge(broke.id, 'sms_d', 1n)).rejects.toMatchObject({ status: 402, code: 'INSUFFICIENT_BALANCE' });
  });

  it("rolls back with the caller's transaction", async () => {
    const team = await fundedTeam(50);
    await expect(
      t.deps.db.transaction().execute(async (tx) => {
        await charge(tx, team.id, { amountMinor: 20n, type: 'SMS_CHARGE', reference: 'sms_x', at: t.clock.now() });
        throw new Error('the provider refused the message');
      }),
    ).rejects.toThrow('provider refused');
    expect(await balance(t.app, team.id)).toBe(50);
    expect(await ledger(t.app, team.id)).toHaveLength(1);
  });

  it('a second charge for the same reference is 409', async () => {
    const team = await fundedTeam(50);
    await smsCharge(team.id, 'sms_same', 10n);
    await expect(smsCharge(team.id, 'sms_same', 10n)).rejects.toMatchObject({ status: 409 });
    expect(await balance(t.app, team.id)).toBe(40);
  });
});

describe('release', () => {
  it('gives a charge back once, even when asked in parallel', async () => {
    const team = await fundedTeam(30);
    const charged = await smsCharge(team.id, 'sms_r', 30n);
    const releases = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.deps.db.transaction().execute((tx) => release(tx, team.id, { chargeId: charged.id, at: t.clock.now() })),
      ),
    );
    expect(new Set(releases.map((r) => r.id)).size).toBe(1);
    expect(releases[0]).toMatchObject({
      type: 'SMS_RELEASE',
      amount: 30n,
      balance_after: 30n,
      reverses_id: charged.id,
    });
    expect(await balance(t.app, team.id)).toBe(30);
    await expectBalancedLedger(t.app, team.id);
  });

  it("another team's charge, or a row that is not an SMS charge, is 404", async () => {
    const team = await fundedTeam(30);
    const other = await fundedTeam(30);
    const charged = await smsCharge(other.id, 'sms_o', 5n);
    const topUp = (await ledger(t.app, team.id))[0]!;
    for (const chargeId of [charged.id, topUp.id, 'wtx_missing']) {
      await expect(
        t.deps.db.transaction().execute((tx) => release(tx, team.id, { chargeId, at: t.clock.now() })),
      ).rejects.toMatchObject({ status: 404 });
    }
    expect(await balance(t.app, other.id)).toBe(25);
  });
});

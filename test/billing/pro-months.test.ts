// Pro months paid from the wallet, driven by moving the clock: the first month when billingMethod
// becomes wallet (402 and nothing changed when short), renewal at proRenewsAt, a grace period when the
// wallet is short, the free plan's limits after it, and recovery by a top-up at once. Each step is a row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renewDueProMonths, chargeDueProUnits, GRACE_DAYS } from '../../src/billing/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminCall, getOk, patchTeam, teamWith, topUp } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
const NGN_MONTH = 3_000_000; // ₦30,000.00 in config/prices.json

const renew = () => renewDueProMonths(t.deps.db, t.deps.config.prices, t.clock.now());

describe('Pro months from the wallet', () => {
  it('billingMethod wallet takes the first month now, with a receipt and an invoice number', async () => {
    const team = await teamWith(t.app, { plan: 'pro', currency: 'NGN', topUp: NGN_MONTH + 500 });
    const patched = await patchTeam(t.app, team.id, { billingMethod: 'wallet' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().billingMethod).toBe('wallet');
    const rows = (await getOk(t.app, team.key, '/v1/billing/transactions')).data;
    expect(rows[0]).toMatchObject({
      type: 'PRO_MONTH',
      amountMinor: -NGN_MONTH,
      amountFormatted: '-₦30,000.00',
      balanceAfterMinor: 500,
    });
    const receipt = await getOk(t.app, team.key, `/v1/billing/receipts/${rows[0].receiptReference}`);
    expect(receipt).toMatchObject({
      type: 'PRO_MONTH',
      direction: 'out',
      amountFormatted: '₦30,000.00',
      currency: 'NGN',
    });
    expect(receipt.invoiceNumber).toMatch(/^HRD-\d{6}$/);
    const plan = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(plan).toMatchObject({
      plan: 'pro',
      isActive: true,
      billingMethod: 'wallet',
      stripe: null,
      wallet: { state: 'active', graceStartedAt: null, graceEndsAt: null, unitsBlocked: false },
      planPayment: {
        currency: 'NGN',
        priceMinor: NGN_MONTH,
        priceFormatted: '₦30,000.00',
        priceConfigured: true,
        fixedPrice: true,
        walletPaysPlan: true,
        live: {
          status: 'paid',
          paidVia: 'wallet',
          amountMinor: NGN_MONTH,
          invoiceNumber: receipt.invoiceNumber,
          receiptReference: receipt.reference,
        },
      },
    });
    expect(new Date(plan.wallet.proRenewsAt).getTime() - t.clock.now().getTime()).toBeGreaterThanOrEqual(28 * DAY);
  });

  it('a wallet that cannot pay the first month: 402 and nothing changes', async () => {
    const team = await teamWith(t.app, { plan: 'pro', currency: 'NGN', topUp: NGN_MONTH - 1 });
    const refused = await patchTeam(t.app, team.id, { billingMethod: 'wallet' });
    expect(refused.statusCode).toBe(402);
    expect((await adminCall(t.app, 'GET', `/teams/${team.id}`)).json().billingMethod).toBe('none');
    expect((await getOk(t.app, team.key, '/v1/billing/transactions')).data).toHaveLength(1);
  });

  it('renews at proRenewsAt; short: grace (sending goes on); after grace: free limits; a top-up pays at once', async () => {
    const team = await teamWith(t.app, { plan: 'pro', currency: 'KES', topUp: 260_000 * 2 });
    expect((await patchTeam(t.app, team.id, { billingMethod: 'wallet' })).statusCode).toBe(200);
    const firstRenewal = new Date((await getOk(t.app, team.key, '/v1/billing/subscription')).wallet.proRenewsAt);

    // Not due yet: nothing happens.
    t.clock.set(new Date(firstRenewal.getTime() - 1000));
    await renew();
    expect((await getOk(t.app, team.key, '/v1/billing/transactions?type=PRO_MONTH')).data).toHaveLength(1);

    // Due: the second month is paid from the wallet.
    t.clock.set(firstRenewal);
    await renew();
    const months = (await getOk(t.app, team.key, '/v1/billing/transactions?type=PRO_MONTH')).data;
    expect(months).toHaveLength(2);
    const numbers = await Promise.all(
      months.map(
        async (m: { receiptReference: string }) =>
          (await getOk(t.app, team.key, `/v1/billing/receipts/${m.receiptReference}`)).invoiceNumber,
      ),
    );
    expect(Number(numbers[0].slice(4))).toBeGreaterThan(Number(numbers[1].slice(4)));
    const secondRenewal = new Date((await getOk(t.app, team.key, '/v1/billing/subscription')).wallet.proRenewsAt);
    expect(secondRenewal.getTime()).toBeGreaterThan(firstRenewal.getTime());

    // The wallet is empty at the third: grace starts, Pro limits hold.
    t.clock.set(secondRenewal);
    await renew();
    let plan = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(plan.wallet).toMatchObject({ state: 'grace', unitsBlocked: false });
    expect(new Date(plan.wallet.graceEndsAt).getTime() - new Date(plan.wallet.graceStartedAt).getTime()).toBe(
      GRACE_DAYS * DAY,
    );
    expect(plan.planPayment.live).toMatchObject({ status: 'grace', invoiceNumber: null });
    let usage = await getOk(t.app, team.key, '/v1/billing/usage');
    expect(usage.plan).toMatchObject({ key: 'pro', effectiveKey: 'pro', status: 'grace', isEntitled: true });

    // Still in grace a moment before it ends.
    t.clock.set(new Date(new Date(plan.wallet.graceEndsAt).getTime() - 1000));
    await renew();
    expect((await getOk(t.app, team.key, '/v1/billing/subscription')).wallet.state).toBe('grace');

    // After grace: the free plan's limits, units blocked.
    t.clock.set(new Date(plan.wallet.graceEndsAt));
    await renew();
    plan = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(plan).toMatchObject({ isActive: false, wallet: { state: 'lapsed', unitsBlocked: true } });
    usage = await getOk(t.app, team.key, '/v1/billing/usage');
    expect(usage.plan).toMatchObject({ key: 'pro', effectiveKey: 'free', isEntitled: false });
    expect(usage.sending.monthly.unlimited).toBe(false);

    // A top-up too small changes nothing; one that covers the month pays it at once.
    await topUp(t.app, team.id, 100);
    expect((await getOk(t.app, team.key, '/v1/billing/subscription')).wallet.state).toBe('lapsed');
    t.clock.advance(1000);
    await topUp(t.app, team.id, 260_000);
    plan = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(plan).toMatchObject({ isActive: true, wallet: { state: 'active', unitsBlocked: false } });
    expect(new Date(plan.wallet.proRenewsAt).getTime()).toBeGreaterThan(t.clock.now().getTime() + 27 * DAY);
    usage = await getOk(t.app, team.key, '/v1/billing/usage');
    expect(usage.plan.effectiveKey).toBe('pro');
    const rows = (await getOk(t.app, team.key, '/v1/billing/transactions?limit=100')).data;
    expect(rows.map((r: { type: string }) => r.type)).toEqual([
      'PRO_MONTH',
      'TOP_UP',
      'TOP_UP',
      'PRO_MONTH',
      'PRO_MONTH',
      'TOP_UP',
    ]);
    expect(rows[0].balanceAfterMinor).toBe(100);
  });

  it('a top-up during grace pays the owed month at once, keeping its period', async () => {
    const team = await teamWith(t.app, { plan: 'pro', currency: 'NGN', topUp: NGN_MONTH });
    expect((await patchTeam(t.app, team.id, { billingMethod: 'wallet' })).statusCode).toBe(200);
    const renewsAt = new Date((await getOk(t.app, team.key, '/v1/billing/subscription')).wallet.proRenewsAt);
    t.clock.set(renewsAt);
    await renew();
    expect((await getOk(t.app, team.key, '/v1/billing/subscription')).wallet.state).toBe('grace');
    t.clock.advance(DAY);
    await topUp(t.app, team.id, NGN_MONTH);
    const plan = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(plan.wallet.state).toBe('active');
    expect(plan.planPayment.live.periodStart).toBe(renewsAt.toISOString());
  });

  it('units past the included amount are charged once a day as PRO_UNITS rows', async () => {
    const team = await teamWith(t.app, { plan: 'pro', currency: 'USD', topUp: 100_000 });
    expect((await patchTeam(t.app, team.id, { billingMethod: 'wallet' })).statusCode).toBe(200);
    const day = t.clock.now().toISOString().slice(0, 10);
    // 10,250 recipients counted today (the counters the send path keeps).
    await t.deps.db
      .insertInto('team_daily_usage')
      .values({
        team_id: team.id,
        day,
        transactional: 10_250,
        marketing: 0,
      })
      .execute();
    await chargeDueProUnits(t.deps.db, t.deps.config.prices, t.clock.now());
    await chargeDueProUnits(t.deps.db, t.deps.config.prices, t.clock.now());
    const units = (await getOk(t.app, team.key, '/v1/billing/transactions?type=PRO_UNITS')).data;
    // 250 units at USD 0.001 = $0.25, once.
    expect(units).toHaveLength(1);
    expect(units[0]).toMatchObject({ amountMinor: -25, amountFormatted: '-$0.25' });
    expect(units[0].receiptReference).toMatch(/^RCT-/);
    const usage = await getOk(t.app, team.key, '/v1/billing/usage');
    expect(usage.units).toMatchObject({
      included: 10_000,
      used: 10_250,
      overage: 250,
      overageMinor: 25,
      overageFormatted: '$0.25',
      overageUsd: 0.25,
    });
  });

  it('a page of teams that stay due (lapsed, still short) does not hide the teams behind it', async () => {
    const lapsed = [];
    for (let i = 0; i < 2; i++) {
      const team = await teamWith(t.app, { plan: 'pro', currency: 'NGN', topUp: NGN_MONTH });
      expect((await patchTeam(t.app, team.id, { billingMethod: 'wallet' })).statusCode).toBe(200);
      lapsed.push(team);
    }
    t.clock.advance(32 * DAY);
    await renew(); // both short: grace
    t.clock.advance((GRACE_DAYS + 1) * DAY);
    await renew(); // still short: lapsed, and due again at every run
    for (const team of lapsed)
      expect((await getOk(t.app, team.key, '/v1/billing/subscription')).wallet.state).toBe('lapsed');
    const behind = await teamWith(t.app, { plan: 'pro', currency: 'NGN', topUp: NGN_MONTH * 2 });
    expect((await patchTeam(t.app, behind.id, { billingMethod: 'wallet' })).statusCode).toBe(200);
    t.clock.advance(32 * DAY);
    // Pages of one team: the lapsed teams (lower ids) come first and are not moved.
    await renewDueProMonths(t.deps.db, t.deps.config.prices, t.clock.now(), 1);
    expect((await getOk(t.app, behind.key, '/v1/billing/transactions?type=PRO_MONTH')).data).toHaveLength(2);
  });

  it('a free team on the wallet that becomes Pro pays the first month then (402 and still free when short)', async () => {
    const team = await teamWith(t.app, { plan: 'free', currency: 'NGN', topUp: NGN_MONTH - 1 });
    expect((await patchTeam(t.app, team.id, { billingMethod: 'wallet' })).statusCode).toBe(200);
    expect((await getOk(t.app, team.key, '/v1/billing/transactions?type=PRO_MONTH')).data).toHaveLength(0);
    const refused = await patchTeam(t.app, team.id, { plan: 'pro' });
    expect(refused.statusCode, refused.body).toBe(402);
    expect(refused.json().error.code).toBe('INSUFFICIENT_BALANCE');
    expect((await adminCall(t.app, 'GET', `/teams/${team.id}`)).json().plan).toBe('free');
    await topUp(t.app, team.id, 1);
    expect((await patchTeam(t.app, team.id, { plan: 'pro' })).statusCode).toBe(200);
    expect((await getOk(t.app, team.key, '/v1/billing/transactions?type=PRO_MONTH')).data).toHaveLength(1);
    const plan = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(plan).toMatchObject({ plan: 'pro', isActive: true, wallet: { state: 'active' } });
    // The same PATCH again changes nothing and takes nothing.
    expect((await patchTeam(t.app, team.id, { plan: 'pro', billingMethod: 'wallet' })).statusCode).toBe(200);
    expect((await getOk(t.app, team.key, '/v1/billing/transactions?type=PRO_MONTH')).data).toHaveLength(1);
  });

  it('a Pro team on the wallet that becomes free stops its months (a STOPPED row): no renewal later', async () => {
    const team = await teamWith(t.app, { plan: 'pro', currency: 'NGN', topUp: NGN_MONTH * 3 });
    expect((await patchTeam(t.app, team.id, { billingMethod: 'wallet' })).statusCode).toBe(200);
    expect((await patchTeam(t.app, team.id, { plan: 'free' })).statusCode).toBe(200);
    expect((await getOk(t.app, team.key, '/v1/billing/subscription')).wallet.state).toBe('none');
    t.clock.advance(40 * DAY);
    await renew();
    // Pro again later: a new first month, from now.
    expect((await patchTeam(t.app, team.id, { plan: 'pro' })).statusCode).toBe(200);
    const months = (await getOk(t.app, team.key, '/v1/billing/transactions?type=PRO_MONTH')).data;
    expect(months).toHaveLength(2);
    expect(months[0].createdAt).toBe(t.clock.now().toISOString());
  });

  it('leaving the wallet stops the months (a STOPPED row); the chore then leaves the team alone', async () => {
    const team = await teamWith(t.app, { plan: 'pro', currency: 'NGN', topUp: NGN_MONTH * 3 });
    expect((await patchTeam(t.app, team.id, { billingMethod: 'wallet' })).statusCode).toBe(200);
    expect((await patchTeam(t.app, team.id, { billingMethod: 'none' })).statusCode).toBe(200);
    t.clock.advance(40 * DAY);
    await renew();
    expect((await getOk(t.app, team.key, '/v1/billing/transactions?type=PRO_MONTH')).data).toHaveLength(1);
    const plan = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(plan).toMatchObject({ billingMethod: 'none', wallet: { state: 'none' } });
  });
});

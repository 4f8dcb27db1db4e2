// GET /v1/billing/usage and /v1/billing/pricing: counters after real sends, limits of the plan,
// Pro units, resources, texts and text spend; the price list per currency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../support/factory.ts';
import { emails, startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { getOk, smsCharge, smsRelease, teamWith, patchTeam, topUp } from './support.ts';
import { planLimits } from '../../src/platform/plans.ts';

let h: EmailHarness;
beforeAll(async () => {
  h = await startEmailHarness();
});
afterAll(() => h.close());

describe('usage', () => {
  it('counts this month and today from the counters after sends, split marketing and transactional', async () => {
    const team = await h.team();
    const send = emails(h.app, team.key);
    await send.sent({ from: team.from(), to: ['a@example.com', 'b@example.com'], subject: 'Hi', text: 'one' });
    await send.sent({ from: team.from(), to: 'c@example.com', subject: 'Hi', text: 'two' });
    const template = await h.app.inject({
      method: 'POST',
      url: '/api/v1/templates',
      headers: bearer(team.key),
      payload: { name: 'News', subject: 'News', type: 'MARKETING', html: '<p>News</p>' },
    });
    expect(template.statusCode, template.body).toBe(200);
    await send.sent({ from: team.from(), to: 'd@example.com', templateId: template.json().id });

    const usage = await getOk(h.app, team.key, '/v1/billing/usage');
    expect(usage.emails).toEqual({
      marketingThisMonth: 1,
      transactionalThisMonth: 3,
      totalThisMonth: 4,
      totalToday: 4,
    });
    const free = planLimits('free');
    expect(usage.sending.daily).toEqual({
      used: 4,
      limit: free.dailySends,
      unlimited: false,
      percentUsed: (4 / free.dailySends!) * 100,
    });
    expect(usage.sending.monthly).toMatchObject({ used: 4, limit: free.monthlySends, unlimited: false });
    expect(usage.thisMonth.emails).toMatchObject({ used: 4, limit: free.monthlySends, unlimited: false });
    expect(usage.plan).toEqual({
      key: 'free',
      effectiveKey: 'free',
      displayName: 'Free',
      monthlyUsd: 0,
      status: null,
      isEntitled: true,
    });
    expect(usage.units).toBeNull();
    expect(usage.resources.domains).toMatchObject({ used: 1, limit: free.domains, unlimited: false });
    expect(usage.resources.teamMembers).toMatchObject({ used: 1, limit: free.members });
    expect(usage.resources.webhooks).toMatchObject({ used: 0, limit: free.webhooks });
    expect(usage.resources.contactBooks).toMatchObject({ used: 0, limit: free.contactBooks });
    expect(usage.apiRateLimit).toBe(100_000);
    const now = h.t.clock.now();
    const start = `${now.toISOString().slice(0, 8)}01`;
    expect(usage.period.startDay).toBe(start);
    expect(usage.period.label).toBe(now.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }));
  });

  it('Pro: no monthly limit (-1, unlimited), units with overage, resources unlimited', async () => {
    const team = await teamWith(h.app, { plan: 'pro', currency: 'NGN', topUp: 100 });
    const usage = await getOk(h.app, team.key, '/v1/billing/usage');
    expect(usage.sending.monthly).toEqual({ used: 0, limit: -1, unlimited: true, percentUsed: 0 });
    expect(usage.resources.domains).toEqual({ used: 0, limit: -1, unlimited: true, percentUsed: 0 });
    expect(usage.units).toMatchObject({
      included: planLimits('pro').includedUnits,
      used: 0,
      overage: 0,
      overageMinor: 0,
      overageFormatted: '₦0.00',
      unitPriceFormatted: '₦1.50',
    });
    expect(usage.billing).toEqual({ method: 'none', currency: 'NGN', unitPriceMicro: 1_500_000 });
    expect(usage.plan).toMatchObject({ key: 'pro', effectiveKey: 'pro', displayName: 'Pro', monthlyUsd: 20 });
  });

  it('texts this month and their spend (charges less releases) in the wallet currency', async () => {
    const team = await teamWith(h.app, { currency: 'KES', topUp: 10_000 });
    await patchTeam(h.app, team.id, { smsEnabled: true });
    const c1 = await smsCharge(h.t, team.id, 'u1', 250);
    await smsCharge(h.t, team.id, 'u2', 250);
    await smsRelease(h.t, team.id, c1.id);
    await topUp(h.app, team.id, 5);
    const usage = await getOk(h.app, team.key, '/v1/billing/usage');
    expect(usage.thisMonth.textSpendFormatted).toMatch(/^KSh\s?2\.50$/);
    // The kept sum grows with the rows after it, and starts again next month.
    await smsCharge(h.t, team.id, 'u3', 100);
    expect((await getOk(h.app, team.key, '/v1/billing/usage')).thisMonth.textSpendFormatted).toMatch(/^KSh\s?3\.50$/);
    expect((await getOk(h.app, team.key, '/v1/billing/usage')).thisMonth.textSpendFormatted).toMatch(/^KSh\s?3\.50$/);
    const now = h.t.clock.now();
    h.t.clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 1)));
    expect((await getOk(h.app, team.key, '/v1/billing/usage')).thisMonth.textSpendFormatted).toMatch(/^KSh\s?0\.00$/);
    await smsCharge(h.t, team.id, 'u4', 40);
    expect((await getOk(h.app, team.key, '/v1/billing/usage')).thisMonth.textSpendFormatted).toMatch(/^KSh\s?0\.40$/);
    expect(usage.thisMonth.codes).toBe(0);
    expect(typeof usage.thisMonth.texts).toBe('number');
  });
});

describe('usage: one-time codes', () => {
  it('each code sent this month counts, a refused one does not, and the next month starts at 0', async () => {
    const team = await h.team();
    const code = (payload: Record<string, unknown>) =>
      h.app.inject({ method: 'POST', url: '/api/v1/verify/send', headers: bearer(team.key), payload });
    const codes = async () => (await getOk(h.app, team.key, '/v1/billing/usage')).thisMonth.codes;
    const now = h.t.clock.now();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    h.t.clock.set(new Date(nextMonth.getTime() - 60_000)); // the month's last minute
    expect(await codes()).toBe(0);
    // 13 codes, then a 14th refused by risk scoring (disposable address, IP and recipient velocity).
    const ip = '198.51.100.9';
    for (let i = 0; i < 10; i++) expect((await code({ to: `x${i}@example.com`, clientIp: ip })).statusCode).toBe(201);
    for (let i = 0; i < 3; i++) expect((await code({ to: 'victim@mailinator.com' })).statusCode).toBe(201);
    expect(await codes()).toBe(13);
    const refused = await code({ to: 'victim@mailinator.com', clientIp: ip });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(await codes()).toBe(13);
    h.t.clock.set(nextMonth);
    expect(await codes()).toBe(0);
    expect((await code({ to: 'next@example.com' })).statusCode).toBe(201);
    expect(await codes()).toBe(1);
  });

  it('counts the codes of a Pro team', async () => {
    const team = await h.team({ plan: 'pro' });
    for (let i = 0; i < 3; i++) {
      const response = await h.app.inject({
        method: 'POST',
        url: '/api/v1/verify/send',
        headers: bearer(team.key),
        payload: { to: `pro${i}@example.com` },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    expect((await getOk(h.app, team.key, '/v1/billing/usage')).thisMonth.codes).toBe(3);
  });
});

describe('pricing', () => {
  it('is the price list in the team billing currency, USD when none chosen', async () => {
    const usd = await teamWith(h.app);
    const list = await getOk(h.app, usd.key, '/v1/billing/pricing');
    expect(list.currency).toBe('USD');
    const sms = list.channels[0];
    expect(sms).toMatchObject({ channel: 'sms', label: 'SMS' });
    expect(sms.tiers[0]).toEqual({
      id: 'starter',
      position: 0,
      name: 'Starter',
      minVolume: 0,
      maxVolume: 9999,
      recommended: false,
      volumeLabel: 'up to 9,999 a month',
    });
    expect(sms.tiers[2].maxVolume).toBeNull();
    expect(sms.lines[0]).toMatchObject({ productLine: 'sms-us', label: 'SMS to the United States', monthlyFee: false });
    expect(sms.lines[0].cells[0]).toEqual({ tierId: 'starter', priceMicro: 7900, priceFormatted: '$0.0079' });
    expect(list.pro).toEqual({
      currency: 'USD',
      monthlyMinor: 2000,
      monthlyFormatted: '$20.00',
      unitPriceMicro: 1000,
      fixedPrice: false,
      configured: true,
    });
    const ngn = await teamWith(h.app, { currency: 'NGN' });
    const naira = await getOk(h.app, ngn.key, '/v1/billing/pricing');
    expect(naira.currency).toBe('NGN');
    expect(naira.pro).toMatchObject({ monthlyFormatted: '₦30,000.00', fixedPrice: true, configured: true });
  });

  it('pro.configured is false for a currency not priced yet', async () => {
    const { createTestApp } = await import('../support/app.ts');
    const { parsePriceList } = await import('../../src/platform/price-list.ts');
    const fs = await import('node:fs');
    const { DEFAULT_PRICES_FILE } = await import('../../src/config.ts');
    const raw = JSON.parse(fs.readFileSync(DEFAULT_PRICES_FILE, 'utf8'));
    raw.currencies.KES.pro = null;
    const prices = parsePriceList(JSON.stringify(raw), 'test');
    const t2 = await createTestApp({ config: { prices } });
    try {
      const team = await teamWith(t2.app, { currency: 'KES' });
      const list = await getOk(t2.app, team.key, '/v1/billing/pricing');
      expect(list.pro).toEqual({
        currency: 'KES',
        monthlyMinor: null,
        monthlyFormatted: null,
        unitPriceMicro: null,
        fixedPrice: false,
        configured: false,
      });
    } finally {
      await t2.close();
    }
  });
});

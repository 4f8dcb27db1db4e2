// The effective plan on the paths that apply plan limits (platform/effective-plan.ts): a Pro team paid
// from the wallet keeps Pro's limits through its grace period, is held to the free plan's once the
// grace ended unpaid (emails: daily limit, even with the key's plan hint still
// cached as Pro, and in one-time codes; webhooks: count), and gets Pro's back as soon as a top-up pays the month.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renewDueProMonths } from '../../src/billing/index.ts';
import { dailySendLimit, webhookLimit } from '../../src/platform/plans.ts';
import { emails } from '../emails/support.ts';
import { createWebhook, startWebhookHarness, type WebhookHarness } from '../webhooks/support.ts';
import { getOk, patchTeam, topUp } from './support.ts';

let w: WebhookHarness;
beforeAll(async () => {
  w = await startWebhookHarness({ dispatch: false });
});
afterAll(async () => w.close());

const KES_MONTH = 260_000; // KSh 2,600.00 in config/prices.json
const renew = () => renewDueProMonths(w.h.t.deps.db, w.h.t.deps.config.prices, w.h.t.clock.now());
const addresses = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);

/** A Pro team paying its month from a KES wallet that holds exactly one month. */
async function walletProTeam() {
  const team = await w.h.team({ plan: 'pro' });
  expect((await patchTeam(w.h.app, team.id, { currency: 'KES' })).statusCode).toBe(200);
  await topUp(w.h.app, team.id, KES_MONTH);
  expect((await patchTeam(w.h.app, team.id, { billingMethod: 'wallet' })).statusCode).toBe(200);
  return team;
}

/** Moves the team's clock to its renewal (the wallet is empty: grace) and returns when grace ends. */
async function intoGrace(key: string): Promise<Date> {
  const renewsAt = new Date((await getOk(w.h.app, key, '/v1/billing/subscription')).wallet.proRenewsAt);
  w.h.t.clock.set(renewsAt);
  await renew();
  const plan = await getOk(w.h.app, key, '/v1/billing/subscription');
  expect(plan.wallet.state).toBe('grace');
  return new Date(plan.wallet.graceEndsAt);
}

describe('the effective plan where limits apply', () => {
  it("emails: Pro's daily limit in grace, the free plan's after it (both store paths), Pro's again once paid", async () => {
    const free = dailySendLimit('free')!;
    expect(free).toBe(100);
    const team = await walletProTeam();
    const api = emails(w.h.app, team.key);
    const base = { from: team.from(), subject: 'Limits', text: 'x' };
    const graceEndsAt = await intoGrace(team.key);

    // In grace: past the free plan's daily limit, still sending.
    for (const prefix of ['g1-', 'g2-', 'g3-'])
      expect((await api.send({ ...base, to: addresses(40, prefix) })).statusCode).toBe(200);

    // A second before grace ends, on its day: Pro (the key's plan hint is cached).
    w.h.t.clock.set(new Date(graceEndsAt.getTime() - 1000));
    expect((await api.send({ ...base, to: 'first@example.com' })).statusCode).toBe(200);
    expect((await api.send({ ...base, to: 'second@example.com' })).statusCode).toBe(200);

    // Grace over: LAPSED. The cached hint still says Pro; the send reads the effective plan and
    // applies the free plan's limit: 100 recipients today, not one more.
    w.h.t.clock.set(graceEndsAt);
    await renew();
    expect((await getOk(w.h.app, team.key, '/v1/billing/usage')).plan.effectiveKey).toBe('free');
    expect((await api.send({ ...base, to: addresses(50, 'l1-') })).statusCode).toBe(200);
    expect((await api.send({ ...base, to: addresses(48, 'l2-') })).statusCode).toBe(200);
    const over = await api.send({ ...base, to: 'one-more@example.com' });
    expect(over.statusCode, over.body).toBe(429);
    expect(over.json().error.message).toMatch(/free plan allows 100/);
    expect((await api.batch([{ ...base, to: 'batch@example.com' }])).statusCode).toBe(429);
    // Another area's send in its own transaction (a one-time code by email) meets the same limit.
    const code = await w.request(team.key, 'POST', '/v1/verify/send', { to: 'code@example.com' });
    expect(code.statusCode, code.body).toBe(429);
    expect(code.json().error.message).toMatch(/free plan allows 100/);

    // A top-up pays the month at once: Pro's limit again, the 101st recipient of the day goes out.
    await topUp(w.h.app, team.id, KES_MONTH);
    expect((await getOk(w.h.app, team.key, '/v1/billing/usage')).plan.effectiveKey).toBe('pro');
    expect((await api.send({ ...base, to: 'one-more@example.com' })).statusCode).toBe(200);
  });

  it("webhooks: the free plan's count once grace ended unpaid (5, not 6), Pro's once paid", async () => {
    expect(webhookLimit('free')).toBe(5);
    const team = await walletProTeam();
    const graceEndsAt = await intoGrace(team.key);
    // In grace: Pro's count, the 6th is accepted.
    for (let i = 0; i < 6; i++) await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    w.h.t.clock.set(graceEndsAt);
    await renew();
    const post = () => w.request(team.key, 'POST', '/v1/webhooks', { url: w.url(), eventTypes: [] });
    const refused = await post();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/allows 5 /) });
    // Down to 4: the 5th fits the free plan, the 6th does not.
    const hooks = (await w.request(team.key, 'GET', '/v1/webhooks')).json().data as { id: string }[];
    for (const hook of hooks.slice(0, 2))
      expect((await w.request(team.key, 'DELETE', `/v1/webhooks/${hook.id}`)).statusCode).toBe(200);
    await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    expect((await post()).statusCode).toBe(403);
    // A top-up pays the month at once: the 6th is accepted again.
    await topUp(w.h.app, team.id, KES_MONTH);
    await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
  });
});

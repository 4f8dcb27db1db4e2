// Invoices and the card subscription through the `stripe` package against the fake Stripe server:
// newest 12, another customer's invoice 404, a bad id 400, no pay links, 503 when Stripe fails or
// hangs, and the brief per-team cache.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { FakeStripe, STRIPE_TEST_SECRET_KEY } from '../support/fake-stripe.ts';
import { get, getOk, patchTeam, teamWith } from './support.ts';

const HOOK_SECRET = 'whsec_test_herald_0123456789';
let stripe: FakeStripe;
const signer = new Stripe('sk_test_signer');
let t: TestApp;
beforeAll(async () => {
  stripe = await FakeStripe.start();
  t = await createTestApp({
    config: {
      stripe: { secretKey: STRIPE_TEST_SECRET_KEY, apiUrl: stripe.url, timeoutMs: 500, webhookSecret: HOOK_SECRET },
    },
  });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

async function cardTeam() {
  const team = await teamWith(t.app, { plan: 'pro' });
  const customer = stripe.addCustomer();
  const patched = await patchTeam(t.app, team.id, { stripeCustomerId: customer, billingMethod: 'card' });
  expect(patched.statusCode, patched.body).toBe(200);
  return { team, customer };
}

describe('invoices', () => {
  it('lists the latest 12, newest first, without pay or download links', async () => {
    const { team, customer } = await cardTeam();
    const made = Array.from({ length: 14 }, (_, i) => stripe.addInvoice(customer, { amountDue: 2000 + i }));
    stripe.addInvoice(stripe.addCustomer(), { amountDue: 1 }); // another customer's
    const list = await getOk(t.app, team.key, '/v1/billing/invoices');
    expect(list.data).toHaveLength(12);
    expect(list.data.map((i: { id: string }) => i.id)).toEqual(
      made
        .slice(2)
        .reverse()
        .map((i) => i.id),
    );
    expect(list.data[0]).toEqual({
      id: made[13]!.id,
      number: made[13]!.number,
      createdAt: new Date(made[13]!.created * 1000).toISOString(),
      amountDue: 2013,
      amountPaid: 2013,
      currency: 'USD',
      status: 'paid',
    });
    expect(JSON.stringify(list)).not.toMatch(/invoice\.stripe\.test|hosted|pdf/);
  });

  it('reads one invoice; 400 for an id that is not in_…; 404 for another customer or a missing one', async () => {
    const { team, customer } = await cardTeam();
    const mine = stripe.addInvoice(customer, { amountDue: 999, amountPaid: 0, status: 'open' });
    const theirs = stripe.addInvoice(stripe.addCustomer());
    const one = await getOk(t.app, team.key, `/v1/billing/invoices/${mine.id}`);
    expect(one).toMatchObject({ id: mine.id, amountDue: 999, amountPaid: 0, status: 'open' });
    expect(Object.keys(one).sort()).toEqual([
      'amountDue',
      'amountPaid',
      'createdAt',
      'currency',
      'id',
      'number',
      'status',
    ]);
    for (const bad of ['inv_123', 'ch_123', 'in_', 'in_a-b']) {
      const response = await get(t.app, team.key, `/v1/billing/invoices/${bad}`);
      expect(response.statusCode, bad).toBe(400);
    }
    expect((await get(t.app, team.key, `/v1/billing/invoices/${theirs.id}`)).statusCode).toBe(404);
    expect((await get(t.app, team.key, '/v1/billing/invoices/in_doesnotexist')).statusCode).toBe(404);
  });

  it('a team with no stripeCustomerId: an empty list and no call to Stripe', async () => {
    const team = await teamWith(t.app);
    const before = stripe.requests.length;
    expect(await getOk(t.app, team.key, '/v1/billing/invoices')).toEqual({ data: [] });
    expect((await get(t.app, team.key, '/v1/billing/invoices/in_abc')).statusCode).toBe(404);
    expect(stripe.requests.length).toBe(before);
  });

  it('Stripe failing or hanging: 503 SERVICE_UNAVAILABLE, never 429', async () => {
    const { team, customer } = await cardTeam();
    stripe.addInvoice(customer);
    stripe.enqueue({ status: 500 }, 'hang');
    for (let i = 0; i < 2; i++) {
      const response = await get(t.app, team.key, '/v1/billing/invoices');
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('SERVICE_UNAVAILABLE');
    }
    // Back to normal: answered, then served from the cache for a while.
    const ok = await getOk(t.app, team.key, '/v1/billing/invoices');
    expect(ok.data).toHaveLength(1);
    const calls = stripe.requests.length;
    await getOk(t.app, team.key, '/v1/billing/invoices');
    expect(stripe.requests.length).toBe(calls);
    t.clock.advance(31_000);
    await getOk(t.app, team.key, '/v1/billing/invoices');
    expect(stripe.requests.length).toBe(calls + 1);
  });
});

describe('subscription', () => {
  it('card team: the stripe object from Stripe', async () => {
    const { team, customer } = await cardTeam();
    stripe.addSubscription(customer, { status: 'active', periodStart: 1_760_000_000, periodEnd: 1_762_592_000 });
    const plan = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(plan).toMatchObject({
      plan: 'pro',
      isActive: true,
      billingMethod: 'card',
      stripe: {
        status: 'active',
        currentPeriodStart: new Date(1_760_000_000_000).toISOString(),
        currentPeriodEnd: new Date(1_762_592_000_000).toISOString(),
        cancelAtPeriodEnd: false,
        cancelAt: null,
      },
      wallet: { state: 'none', proRenewsAt: null, graceStartedAt: null, graceEndsAt: null, unitsBlocked: false },
      planPayment: {
        currency: 'USD',
        priceMinor: 2000,
        priceFormatted: '$20.00',
        priceConfigured: true,
        fixedPrice: false,
        walletPaysPlan: false,
        live: null,
      },
    });
  });

  it('not a card team: stripe null and no call; Stripe down for a card team: 503', async () => {
    const team = await teamWith(t.app);
    const before = stripe.requests.length;
    const plan = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(plan).toMatchObject({ plan: 'free', isActive: false, billingMethod: 'none', stripe: null });
    expect(stripe.requests.length).toBe(before);
    const { team: card } = await cardTeam();
    stripe.enqueue({ status: 503 });
    const response = await get(t.app, card.key, '/v1/billing/subscription');
    expect(response.statusCode).toBe(503);
  });
});

describe('POST /hooks/stripe', () => {
  const event = (customer: string) =>
    JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'invoice.created',
      data: { object: { id: 'in_x', object: 'invoice', customer } },
    });
  const post = (payload: string, signature?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/hooks/stripe',
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      payload,
    });
  const sign = (payload: string, secret = HOOK_SECRET) =>
    signer.webhooks.generateTestHeaderString({
      payload,
      secret,
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    });

  it("a signed invoice event refreshes the team's invoices at once; a bad or missing signature is 400", async () => {
    const { team, customer } = await cardTeam();
    stripe.addInvoice(customer);
    expect((await getOk(t.app, team.key, '/v1/billing/invoices')).data).toHaveLength(1);
    stripe.addInvoice(customer);
    // Kept for a while...
    expect((await getOk(t.app, team.key, '/v1/billing/invoices')).data).toHaveLength(1);
    const payload = event(customer);
    expect((await post(payload, sign(payload, 'whsec_wrong'))).statusCode).toBe(400);
    expect((await post(payload)).statusCode).toBe(400);
    expect((await getOk(t.app, team.key, '/v1/billing/invoices')).data).toHaveLength(1);
    // ...until Stripe says the customer's invoices changed (twice: a duplicate changes nothing more).
    for (let i = 0; i < 2; i++) {
      const response = await post(payload, sign(payload));
      expect(response.statusCode, response.body).toBe(200);
    }
    expect((await getOk(t.app, team.key, '/v1/billing/invoices')).data).toHaveLength(2);
  });

  it('refuses a replay: an event signed more than 300 s before or after its receipt is 400', async () => {
    const payload = event('cus_replayed');
    const signedAt = (offsetSeconds: number) =>
      signer.webhooks.generateTestHeaderString({
        payload,
        secret: HOOK_SECRET,
        timestamp: Math.floor(t.clock.now().getTime() / 1000) + offsetSeconds,
      });
    for (const offset of [-3600, 3600, -301, 301]) {
      const response = await post(payload, signedAt(offset));
      expect(response.statusCode, `signed ${offset} s from now`).toBe(400);
    }
    for (const offset of [0, -300, 300]) {
      const response = await post(payload, signedAt(offset));
      expect(response.statusCode, `signed ${offset} s from now: ${response.body}`).toBe(200);
    }
  });

  it('is off (404) without HERALD_STRIPE_WEBHOOK_SECRET', async () => {
    const off = await createTestApp();
    try {
      const payload = event('cus_1');
      const response = await off.app.inject({
        method: 'POST',
        url: '/hooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload) },
        payload,
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

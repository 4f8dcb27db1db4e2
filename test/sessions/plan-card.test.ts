// PUT /v1/session/plan {plan: "pro", method: "card"} (issue 45) against the fake Stripe: a Checkout
// Session in subscription mode for the team's Stripe customer (made once), answered as its URL with
// nothing changed yet; Stripe's signed events through /hooks/stripe make the team Pro by card; 400
// naming the setting when a Stripe setting is missing, 503 when Stripe fails, 403 for an API key.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminRequest, bearer, createTeam, type TestTeam } from '../support/factory.ts';
import { FakeStripeCheckout, type FakeCheckoutSession } from '../support/fake-stripe-checkout.ts';
import { STRIPE_TEST_SECRET_KEY } from '../support/fake-stripe.ts';
import { getOk, topUp } from '../billing/support.ts';
import { signedIn, type Browser } from './support.ts';

const HOOK_SECRET = 'whsec_test_herald_checkout_0123';
const USD_MONTH = 2000; // $20.00 in config/prices.json
const signer = new Stripe('sk_test_signer');
let stripe: FakeStripeCheckout;
let t: TestApp;

beforeAll(async () => {
  stripe = await FakeStripeCheckout.start();
  t = await createTestApp({
    config: {
      stripe: { secretKey: STRIPE_TEST_SECRET_KEY, apiUrl: stripe.url, timeoutMs: 2_000, webhookSecret: HOOK_SECRET },
    },
  });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

async function ownerOfTeam(app = t): Promise<{ team: TestTeam; owner: Browser }> {
  const team = await createTeam(app.app);
  const row = await app.deps.db
    .selectFrom('members')
    .select('email')
    .where('id', '=', team.ownerId)
    .executeTakeFirstOrThrow();
  return { team, owner: await signedIn(app, row.email) };
}

const payByCard = (owner: Browser) =>
  owner.call('PUT', '/v1/session/plan', { payload: { plan: 'pro', method: 'card' } });
const stripeCustomerOf = async (teamId: number) =>
  ((await adminRequest(t.app, 'GET', `/teams/${teamId}`)) as { stripeCustomerId: string | null }).stripeCustomerId;
const sessionOf = (checkoutUrl: string): FakeCheckoutSession =>
  stripe.sessions.find((s) => s.url === checkoutUrl) ?? expect.unreachable(`no session for ${checkoutUrl}`);

function postEvent(payload: string) {
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: HOOK_SECRET,
    timestamp: Math.floor(t.clock.now().getTime() / 1000),
  });
  return t.app.inject({
    method: 'POST',
    url: '/hooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

describe('PUT /v1/session/plan by card', () => {
  it("opens a subscription Checkout for the team's new Stripe customer, in Stripe's form encoding; nothing changes yet", async () => {
    const { team, owner } = await ownerOfTeam();
    const before = stripe.requests.length;
    const answer = await payByCard(owner);
    expect(answer.statusCode, answer.body).toBe(202);
    const { checkoutUrl } = answer.json() as { checkoutUrl: string };
    expect(checkoutUrl).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_test_`));

    const [customerCall, sessionCall] = stripe.requests.slice(before);
    expect(customerCall).toMatchObject({ method: 'POST', path: '/v1/customers' });
    expect(customerCall!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(customerCall!.headers['idempotency-key']).toBe(`herald-team-${team.id}-customer`);
    expect(Object.fromEntries(new URLSearchParams(customerCall!.body))).toMatchObject({
      'metadata[herald_team_id]': String(team.id),
    });
    const customer = await stripeCustomerOf(team.id);
    expect(customer).toMatch(/^cus_/);

    expect(sessionCall).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    const publicUrl = t.deps.config.publicUrl.replace(/\/+$/, '');
    expect(sessionOf(checkoutUrl).form).toEqual({
      mode: 'subscription',
      customer,
      client_reference_id: String(team.id),
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': String(USD_MONTH),
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][product_data][name]': 'Herald Pro',
      'metadata[herald_team_id]': String(team.id),
      'subscription_data[metadata][herald_team_id]': String(team.id),
      success_url: `${publicUrl}/billing?checkout=success`,
      cancel_url: `${publicUrl}/billing?checkout=cancelled`,
    });
    expect((await owner.call('GET', '/v1/session')).json().team.plan).toBe('free');
    expect(await getOk(t.app, team.key, '/v1/billing/subscription')).toMatchObject({
      plan: 'free',
      billingMethod: 'none',
    });

    // Again (a second click): the same customer, a new checkout.
    const again = await payByCard(owner);
    expect(again.statusCode).toBe(202);
    expect(stripe.requests.slice(before).filter((r) => r.path === '/v1/customers')).toHaveLength(1);
    expect(sessionOf(again.json().checkoutUrl).customer).toBe(customer);
  });

  it("Stripe's signed events make the team Pro by card; duplicates change nothing more", async () => {
    const { team, owner } = await ownerOfTeam();
    await topUp(t.app, team.id, 5_000);
    const { checkoutUrl } = (await payByCard(owner)).json() as { checkoutUrl: string };
    const { events } = stripe.complete(sessionOf(checkoutUrl).id);
    for (const payload of [events.completed, events.created, events.completed]) {
      const received = await postEvent(payload);
      expect(received.statusCode, received.body).toBe(200);
    }
    expect((await owner.call('GET', '/v1/session')).json().team.plan).toBe('pro');
    expect(await getOk(t.app, team.key, '/v1/billing/subscription')).toMatchObject({
      plan: 'pro',
      isActive: true,
      billingMethod: 'card',
      stripe: { status: 'active' },
    });
    // Paid by card: the wallet is not charged.
    const rows = (await getOk(t.app, team.key, '/v1/billing/transactions')).data as { type: string }[];
    expect(rows.map((row) => row.type)).toEqual(['TOP_UP']);
    // From now on its plan is Stripe's and the operator's.
    const drop = await owner.call('PUT', '/v1/session/plan', { payload: { plan: 'free' } });
    expect(drop.statusCode).toBe(400);
  });

  it('a subscription created live makes the team Pro on its own; an unpaid checkout or another team named does not', async () => {
    const { team: first, owner: firstOwner } = await ownerOfTeam();
    const { team: second, owner: secondOwner } = await ownerOfTeam();
    const one = sessionOf((await payByCard(firstOwner)).json().checkoutUrl);
    const two = sessionOf((await payByCard(secondOwner)).json().checkoutUrl);

    // Unpaid: the checkout finished but the money has not arrived.
    const unpaid = JSON.parse(stripe.complete(two.id).events.completed);
    unpaid.data.object.payment_status = 'unpaid';
    expect((await postEvent(JSON.stringify(unpaid))).statusCode).toBe(200);
    // Naming another team than the customer's.
    const crossed = JSON.parse(stripe.complete(one.id).events.completed);
    crossed.data.object.client_reference_id = String(second.id);
    expect((await postEvent(JSON.stringify(crossed))).statusCode).toBe(200);
    expect((await getOk(t.app, first.key, '/v1/billing/subscription')).plan).toBe('free');
    expect((await getOk(t.app, second.key, '/v1/billing/subscription')).plan).toBe('free');

    const created = stripe.complete(two.id).events.created;
    expect((await postEvent(created)).statusCode).toBe(200);
    expect((await getOk(t.app, second.key, '/v1/billing/subscription')).plan).toBe('pro');
    expect((await getOk(t.app, first.key, '/v1/billing/subscription')).plan).toBe('free');
  });

  it('Stripe failing: 503 and nothing stored; an API key: 403 SCOPE_DENIED', async () => {
    const { team, owner } = await ownerOfTeam();
    stripe.enqueue({ status: 500 });
    const failed = await payByCard(owner);
    expect(failed.statusCode).toBe(503);
    expect(failed.json().error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await stripeCustomerOf(team.id)).toBeNull();

    const byKey = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/session/plan',
      headers: bearer(team.key),
      payload: { plan: 'pro', method: 'card' },
    });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.code).toBe('SCOPE_DENIED');
  });
});

describe('without the Stripe settings', () => {
  it('400 naming HERALD_STRIPE_SECRET_KEY, or HERALD_STRIPE_WEBHOOK_SECRET, and no call to Stripe', async () => {
    const cases = [
      { secretKey: null, webhookSecret: HOOK_SECRET, named: 'HERALD_STRIPE_SECRET_KEY' },
      { secretKey: STRIPE_TEST_SECRET_KEY, webhookSecret: null, named: 'HERALD_STRIPE_WEBHOOK_SECRET' },
    ];
    for (const { secretKey, webhookSecret, named } of cases) {
      const off = await createTestApp({
        config: { stripe: { secretKey, webhookSecret, apiUrl: stripe.url, timeoutMs: 2_000 } },
      });
      try {
        const { owner } = await ownerOfTeam(off);
        const before = stripe.requests.length;
        const refused = await payByCard(owner);
        expect(refused.statusCode).toBe(400);
        expect(refused.json().error.message).toMatch(new RegExp(`^method: .*${named}`));
        expect(stripe.requests.length).toBe(before);
      } finally {
        await off.close();
      }
    }
  });
});

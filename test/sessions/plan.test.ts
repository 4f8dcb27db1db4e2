// PUT /v1/session/plan (issue 45): a signed-in team admin moves the team to Pro paid from the wallet
// (the first month through billing's Pro-month rows; 402 when the wallet is short) or back to free
// at once; a member is refused (FORBIDDEN), a key too (SCOPE_DENIED), card is not offered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';
import { getOk, patchTeam, topUp } from '../billing/support.ts';
import { signedIn, type Browser } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const NGN_MONTH = 3_000_000; // ₦30,000.00 in config/prices.json

async function emailOf(memberId: number): Promise<string> {
  const row = await t.deps.db
    .selectFrom('members')
    .select('email')
    .where('id', '=', memberId)
    .executeTakeFirstOrThrow();
  return row.email;
}

/** A free NGN team, its wallet topped up with `balance`, and its owner signed in. */
async function ownerOfTeam(balance: number): Promise<{ team: TestTeam; owner: Browser }> {
  const team = await createTeam(t.app);
  await patchTeam(t.app, team.id, { currency: 'NGN' });
  if (balance > 0) await topUp(t.app, team.id, balance);
  return { team, owner: await signedIn(t, await emailOf(team.ownerId)) };
}

const changePlan = (browser: Browser, payload: object) => browser.call('PUT', '/v1/session/plan', { payload });

describe('PUT /v1/session/plan', () => {
  it('pro from the wallet takes the first month as a Pro month row, and answers the session on pro', async () => {
    const { team, owner } = await ownerOfTeam(NGN_MONTH + 100);
    const changed = await changePlan(owner, { plan: 'pro', method: 'wallet' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().team).toMatchObject({ id: team.id, plan: 'pro', role: 'OWNER' });
    const rows = (await getOk(t.app, team.key, '/v1/billing/transactions')).data;
    expect(rows[0]).toMatchObject({ type: 'PRO_MONTH', amountMinor: -NGN_MONTH, balanceAfterMinor: 100 });
    const subscription = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(subscription).toMatchObject({ plan: 'pro', billingMethod: 'wallet', wallet: { state: 'active' } });
    // Again: nothing more is taken.
    expect((await changePlan(owner, { plan: 'pro', method: 'wallet' })).statusCode).toBe(200);
    expect((await getOk(t.app, team.key, '/v1/billing/transactions')).data).toHaveLength(rows.length);
  });

  it('402 when the wallet cannot pay the month; nothing changes', async () => {
    const { team, owner } = await ownerOfTeam(NGN_MONTH - 1);
    const refused = await changePlan(owner, { plan: 'pro', method: 'wallet' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error.code).toBe('INSUFFICIENT_BALANCE');
    expect((await owner.call('GET', '/v1/session')).json().team.plan).toBe('free');
    const rows = (await getOk(t.app, team.key, '/v1/billing/transactions')).data;
    expect(rows.every((row: { type: string }) => row.type !== 'PRO_MONTH')).toBe(true);
  });

  it('free drops to free at once and stops the Pro months', async () => {
    const { team, owner } = await ownerOfTeam(NGN_MONTH);
    expect((await changePlan(owner, { plan: 'pro', method: 'wallet' })).statusCode).toBe(200);
    const dropped = await changePlan(owner, { plan: 'free' });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json().team.plan).toBe('free');
    const subscription = await getOk(t.app, team.key, '/v1/billing/subscription');
    expect(subscription.plan).toBe('free');
    const events = await t.deps.db
      .selectFrom('pro_month_events')
      .select('kind')
      .where('team_id', '=', team.id)
      .orderBy('seq')
      .execute();
    expect(events.map((event) => event.kind)).toEqual(['PAID', 'STOPPED']);
  });

  it('a team admin only: a member gets 403 FORBIDDEN, an API key 403 SCOPE_DENIED, no cookie 401', async () => {
    const { team } = await ownerOfTeam(NGN_MONTH);
    const member = await signedIn(t, await emailOf(await team.addMember('MEMBER')));
    const byMember = await changePlan(member, { plan: 'pro', method: 'wallet' });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().error.code).toBe('FORBIDDEN');
    const admin = await signedIn(t, await emailOf(await team.addMember('ADMIN')));
    expect((await changePlan(admin, { plan: 'free' })).statusCode).toBe(200);

    const byKey = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/session/plan',
      headers: bearer(team.key),
      payload: { plan: 'pro', method: 'wallet' },
    });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.code).toBe('SCOPE_DENIED');
    const bare = await t.app.inject({ method: 'PUT', url: '/api/v1/session/plan', payload: { plan: 'free' } });
    expect(bare.statusCode).toBe(401);
    expect((await getOk(t.app, team.key, '/v1/billing/subscription')).plan).toBe('free');
  });

  it('needs the CSRF token and Origin, as every write with the cookie', async () => {
    const { owner } = await ownerOfTeam(NGN_MONTH);
    const bare = await owner.bare('PUT', '/v1/session/plan', { payload: { plan: 'pro', method: 'wallet' } });
    expect(bare.statusCode).toBe(403);
    expect((await owner.call('GET', '/v1/session')).json().team.plan).toBe('free');
  });

  it('card is not offered (400 naming method); pro needs a method; a team billed by card is left to the operator', async () => {
    const { team, owner } = await ownerOfTeam(NGN_MONTH);
    const card = await changePlan(owner, { plan: 'pro', method: 'card' });
    expect(card.statusCode).toBe(400);
    expect(card.json().error.message).toMatch(/^method: /);
    const none = await changePlan(owner, { plan: 'pro' });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toMatch(/^method: /);
    const bad = await changePlan(owner, { plan: 'enterprise' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^plan: /);

    await patchTeam(t.app, team.id, { billingMethod: 'card', plan: 'pro' });
    const byCard = await changePlan(owner, { plan: 'free' });
    expect(byCard.statusCode).toBe(400);
    expect(byCard.json().error.message).toMatch(/^plan: /);
    expect((await owner.call('GET', '/v1/session')).json().team.plan).toBe('pro');
  });
});

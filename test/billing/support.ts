// Billing test helpers: a funded team, admin calls, and billing reads through HTTP.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { charge, release } from '../../src/wallet/index.ts';
import type { TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';
import { adminCall } from '../wallet/support.ts';

export { adminCall };

/** Every billing read route (under /api): what counts against the billing read limits. */
export const BILLING_READS = [
  '/v1/billing/transactions',
  '/v1/billing/receipts',
  '/v1/billing/invoices',
  '/v1/billing/subscription',
  '/v1/billing/usage',
  '/v1/billing/pricing',
];

export async function teamWith(
  app: FastifyInstance,
  options: { currency?: 'USD' | 'NGN' | 'KES'; plan?: 'free' | 'pro'; topUp?: number } = {},
): Promise<TestTeam> {
  const team = await createTeam(app, { plan: options.plan });
  if (options.currency) await patchTeam(app, team.id, { currency: options.currency });
  if (options.topUp) await topUp(app, team.id, options.topUp);
  return team;
}

export async function patchTeam(app: FastifyInstance, teamId: number, body: Record<string, unknown>) {
  const response = await adminCall(app, 'PATCH', `/teams/${teamId}`, body);
  return response;
}

export async function topUp(app: FastifyInstance, teamId: number, amountMinor: number, reference?: string) {
  const response = await adminCall(app, 'POST', `/teams/${teamId}/wallet/top-ups`, {
    amountMinor,
    ...(reference ? { reference } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

export function get(app: FastifyInstance, key: string, url: string) {
  return app.inject({ method: 'GET', url: `/api${url}`, headers: bearer(key) });
}

export async function getOk(app: FastifyInstance, key: string, url: string) {
  const response = await get(app, key, url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** An SMS charge through the wallet's own seam (what POST /v1/sms does in its transaction). */
export async function smsCharge(t: TestApp, teamId: number, reference: string, amountMinor: number) {
  return t.deps.db
    .transaction()
    .execute((tx) =>
      charge(tx, teamId, { amountMinor: BigInt(amountMinor), type: 'SMS_CHARGE', reference, at: t.clock.now() }),
    );
}

export async function smsRelease(t: TestApp, teamId: number, chargeId: string) {
  return t.deps.db.transaction().execute((tx) => release(tx, teamId, { chargeId, at: t.clock.now() }));
}

/** Appends `n` SMS charges of 1 minor unit to a funded wallet in one statement, chained like the ledger does. */
export async function appendCharges(t: TestApp, teamId: number, n: number): Promise<void> {
  const at = t.clock.now();
  await t.deps.db.transaction().execute(async (tx) => {
    const wallet = await tx
      .selectFrom('wallets')
      .selectAll()
      .where('team_id', '=', teamId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    await sql`INSERT INTO wallet_transactions (id, team_id, seq, type, amount, balance_after, currency, reference, created_at)
      SELECT 'wtx_bulk_' || ${teamId} || '_' || g, ${teamId}, ${wallet.last_seq} + g, 'SMS_CHARGE', -1,
        ${wallet.balance} - g, ${wallet.currency}, 'bulk_' || g, ${at}
      FROM generate_series(1, ${n}::int) AS g`.execute(tx);
    await sql`UPDATE wallets SET balance = balance - ${n}, last_seq = last_seq + ${n} WHERE team_id = ${teamId}`.execute(
      tx,
    );
  });
}

// Wallet test helpers: admin calls that return the response, and a ledger check through the admin API.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../support/app.ts';

export function adminCall(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

export interface LedgerRow {
  id: string;
  type: string;
  amountMinor: number;
  balanceAfterMinor: number;
  reference: string;
  receiptReference: string | null;
}

/** Oldest first. */
export async function ledger(app: FastifyInstance, teamId: number): Promise<LedgerRow[]> {
  const response = await adminCall(app, 'GET', `/teams/${teamId}/wallet/transactions?limit=500`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as LedgerRow[]).reverse();
}

export async function balance(app: FastifyInstance, teamId: number): Promise<number> {
  const response = await adminCall(app, 'GET', `/teams/${teamId}/wallet`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().balanceMinor as number;
}

/** Every balanceAfter is the previous one plus its amount, from 0, and the last is the wallet's balance. */
export async function expectBalancedLedger(app: FastifyInstance, teamId: number): Promise<LedgerRow[]> {
  const rows = await ledger(app, teamId);
  let running = 0;
  for (const row of rows) {
    running += row.amountMinor;
    expect(row.balanceAfterMinor, `row ${row.id} (${row.type})`).toBe(running);
    expect(row.balanceAfterMinor).toBeGreaterThanOrEqual(0);
  }
  expect(await balance(app, teamId)).toBe(running);
  return rows;
}

// `herald admin wallet …` and `herald admin sender-ids …`: each command maps to its admin request,
// and the requests it makes work against the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands, type AdminRequest } from '../../src/admin/cli-commands.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';
import { adminCall } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function request(resource: string, action: string, values: Record<string, string>): AdminRequest {
  const command = adminCommands.find((c) => c.resource === resource && c.action === action);
  if (!command) throw new Error(`no command ${resource} ${action}`);
  return command.toRequest(values, []) as AdminRequest;
}

const send = (r: AdminRequest) => adminCall(t.app, r.method, r.path, r.body);

describe('herald admin wallet and sender-ids', () => {
  it('maps each command to the admin API and the requests succeed', async () => {
    const team = String((await createTeam(t.app)).id);
    const topUp = request('wallet', 'top-up', { team, 'amount-minor': '1000', reference: 'cli-1' });
    expect(topUp).toEqual({
      method: 'POST',
      path: `/teams/${team}/wallet/top-ups`,
      body: { amountMinor: 1000, reference: 'cli-1' },
    });
    const row = (await send(topUp)).json();
    expect(row.amountMinor).toBe(1000);
    const adjust = request('wallet', 'adjust', { team, 'amount-minor': '-100', description: 'fix' });
    expect(adjust.body).toEqual({ amountMinor: -100, description: 'fix' });
    expect((await send(adjust)).statusCode).toBe(201);
    expect((await send(request('wallet', 'reverse', { team, transaction: row.id }))).statusCode).toBe(400); // 100 spent
    const sender = request('sender-ids', 'create', { team, 'sender-id': 'Acme', country: 'KE', 'fee-minor': '200' });
    const created = (await send(sender)).json();
    expect(created.status).toBe('APPROVED');
    expect((await send(request('sender-ids', 'list', { team }))).json()).toHaveLength(1);
    const remove = request('sender-ids', 'delete', { team, id: created.id, refund: 'true' });
    expect(remove.body).toEqual({ refund: true });
    expect((await send(remove)).statusCode).toBe(200);
    expect((await send(request('wallet', 'get', { team }))).json().balanceMinor).toBe(900);
    const page = (await send(request('wallet', 'transactions', { team, limit: '2' }))).json();
    expect(page.data.map((r: { type: string }) => r.type)).toEqual(['SENDER_ID_REFUND', 'SENDER_ID_FEE']);
    expect(() => request('wallet', 'top-up', { team, 'amount-minor': '1.5' })).toThrow(/amount-minor/);
    expect(() => request('wallet', 'adjust', { team, 'amount-minor': '5' })).toThrow(/--description/);
    expect(() => request('sender-ids', 'delete', { team, id: 'x', refund: 'maybe' })).toThrow(/refund/);
  });
});

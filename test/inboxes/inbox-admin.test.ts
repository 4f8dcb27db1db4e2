// The admin API's inbox operations (operator.md) and their `herald admin inboxes` commands: an
// address on HERALD_MAIL_DOMAIN or a verified sending domain of the team, 409 for a taken address
// (any case, any team), 400 for any other domain, a +tag or the reserved bounce@; list and delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands, type AdminRequest } from '../../src/admin/cli-commands.ts';
import { startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import { TEST_ADMIN_TOKEN } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';
import { MAIL_DOMAIN, uniqueLocal } from './support.ts';

let h: EmailHarness;
let team: SendingTeam;

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team();
}, 180_000);
afterAll(async () => h?.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  h.app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('admin inboxes', () => {
  it('creates inboxes on the mail domain and on a verified sending domain; lists and deletes them', async () => {
    const onMailDomain = await call('POST', `/teams/${team.id}/inboxes`, {
      name: 'Support',
      address: `${uniqueLocal('Support')}@${MAIL_DOMAIN.toUpperCase()}`,
    });
    expect(onMailDomain.statusCode, onMailDomain.body).toBe(201);
    const created = onMailDomain.json();
    expect(Object.keys(created).sort()).toEqual(['address', 'createdAt', 'id', 'name']);
    expect(created.address).toBe(created.address.toLowerCase());
    h.t.clock.advance(1_000); // listed in creation order
    const onDomain = await call('POST', `/teams/${team.id}/inboxes`, { name: 'Sales', address: team.from('sales') });
    expect(onDomain.statusCode, onDomain.body).toBe(201);
    // The domain's records now include the MX that brings its mail to Herald, marked inbound.
    const domain = (
      await h.app.inject({
        method: 'GET',
        url: `/api/v1/domains/${team.domain.id}`,
        headers: { authorization: `Bearer ${team.key}` },
      })
    ).json();
    expect(domain.dnsRecords.filter((r: { inbound?: boolean }) => r.inbound)).toEqual([
      {
        type: 'MX',
        name: team.domain.name,
        value: MAIL_DOMAIN,
        ttl: 'Auto',
        priority: '10',
        status: 'NOT_STARTED',
        recommended: false,
        inbound: true,
      },
    ]);
    expect(domain.status).toBe('SUCCESS');
    const listed = (await call('GET', `/teams/${team.id}/inboxes`)).json();
    expect(listed.map((i: { id: string }) => i.id)).toEqual([created.id, onDomain.json().id]);
    expect((await call('DELETE', `/teams/${team.id}/inboxes/${created.id}`)).json()).toEqual({
      id: created.id,
      deleted: true,
    });
    expect((await call('DELETE', `/teams/${team.id}/inboxes/${created.id}`)).statusCode).toBe(404);
    expect((await call('GET', `/teams/${team.id}/inboxes`)).json()).toHaveLength(1);
    // The address is free again once deleted.
    expect(
      (await call('POST', `/teams/${team.id}/inboxes`, { name: 'Again', address: created.address })).statusCode,
    ).toBe(201);
  });

  it('answers 409 for an address already taken, in any case and by any team', async () => {
    const address = `${uniqueLocal('dup')}@${MAIL_DOMAIN}`;
    expect((await call('POST', `/teams/${team.id}/inboxes`, { name: 'A', address })).statusCode).toBe(201);
    const again = await call('POST', `/teams/${team.id}/inboxes`, { name: 'B', address: address.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CONFLICT');
    const other = await createTeam(h.app);
    expect((await call('POST', `/teams/${other.id}/inboxes`, { name: 'C', address })).statusCode).toBe(409);
  });

  it('answers 400 for a domain that is neither, a +tag, the reserved bounce@, a bad address or name; 404 for no team', async () => {
    const other = await h.team();
    const cases: [string, unknown][] = [
      ['unknown domain', { name: 'X', address: 'help@nowhere.test' }],
      ["another team's verified domain", { name: 'X', address: other.from('help') }],
      ['+tag', { name: 'X', address: `a+b@${MAIL_DOMAIN}` }],
      ['bounce@', { name: 'X', address: `bounce@${MAIL_DOMAIN}` }],
      ['not an address', { name: 'X', address: 'nope' }],
      ['no name', { address: `${uniqueLocal()}@${MAIL_DOMAIN}` }],
      ['empty name', { name: ' ', address: `${uniqueLocal()}@${MAIL_DOMAIN}` }],
      ['long name', { name: 'n'.repeat(201), address: `${uniqueLocal()}@${MAIL_DOMAIN}` }],
    ];
    for (const [label, body] of cases) {
      const response = await call('POST', `/teams/${team.id}/inboxes`, body);
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
    }
    expect(
      (
        await call('POST', `/teams/${team.id}/inboxes`, {
          name: 'n'.repeat(200),
          address: `${uniqueLocal()}@${MAIL_DOMAIN}`,
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (await call('POST', '/teams/999999/inboxes', { name: 'X', address: `${uniqueLocal()}@${MAIL_DOMAIN}` }))
        .statusCode,
    ).toBe(404);
    expect((await call('GET', '/teams/999999/inboxes')).statusCode).toBe(404);
    const other2 = await createTeam(h.app);
    const mine = (
      await call('POST', `/teams/${team.id}/inboxes`, { name: 'M', address: `${uniqueLocal()}@${MAIL_DOMAIN}` })
    ).json();
    expect((await call('DELETE', `/teams/${other2.id}/inboxes/${mine.id}`)).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: `/admin/v1/teams/${team.id}/inboxes` })).statusCode).toBe(401);
  });

  it('maps `herald admin inboxes` commands to these requests', async () => {
    const request = (action: string, values: Record<string, string>) =>
      adminCommands.find((c) => c.resource === 'inboxes' && c.action === action)!.toRequest(values, []) as AdminRequest;
    const address = `${uniqueLocal('cli')}@${MAIL_DOMAIN}`;
    const create = request('create', { team: String(team.id), name: 'CLI', address });
    expect(create).toEqual({ method: 'POST', path: `/teams/${team.id}/inboxes`, body: { name: 'CLI', address } });
    const created = (await call('POST', create.path, create.body)).json();
    expect(request('list', { team: String(team.id) })).toEqual({ method: 'GET', path: `/teams/${team.id}/inboxes` });
    expect(request('delete', { team: String(team.id), id: created.id })).toEqual({
      method: 'DELETE',
      path: `/teams/${team.id}/inboxes/${created.id}`,
    });
  });
});

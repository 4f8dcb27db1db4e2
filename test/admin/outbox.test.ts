// GET /admin/v1/outbox and `herald admin outbox list`: the token, the query limits, the CLI mapping.
// What the outbox holds is tested with the delivery worker (test/emails/delivery-log.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands } from '../../src/admin/cli-commands.ts';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string, token = TEST_ADMIN_TOKEN) =>
  t.app.inject({ method: 'GET', url: `/admin/v1/outbox${url}`, headers: { authorization: `Bearer ${token}` } });

describe('GET /admin/v1/outbox', () => {
  it('needs the admin token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/admin/v1/outbox' })).statusCode).toBe(401);
    expect((await get('', 'wrong-token')).statusCode).toBe(401);
  });

  it('accepts limit 1..100 and a positive teamId', async () => {
    expect((await get('?limit=1')).statusCode).toBe(200);
    expect((await get('?limit=100')).statusCode).toBe(200);
    expect((await get('?limit=0')).statusCode).toBe(400);
    expect((await get('?limit=101')).statusCode).toBe(400);
    expect((await get('?teamId=0')).statusCode).toBe(400);
    expect((await get('?teamId=999999999')).json()).toEqual([]);
  });
});

describe('herald admin outbox list', () => {
  const command = adminCommands.find((c) => c.resource === 'outbox' && c.action === 'list')!;

  it('maps --team and --limit to the query', () => {
    expect(command.toRequest({}, [])).toEqual({ method: 'GET', path: '/outbox' });
    expect(command.toRequest({ team: '7', limit: '5' }, [])).toEqual({
      method: 'GET',
      path: '/outbox?teamId=7&limit=5',
    });
    expect(() => command.toRequest({ limit: 'many' }, [])).toThrow(/--limit/);
  });
});

// Templates of another team answer as missing ones (404) and stay untouched, getTemplateForSend reads
// only the given team, and the access rule (FULL) on every endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTemplateForSend } from '../../src/templates/index.ts';
import type { TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { errorOf, startTemplatesApp, templatesClient, type TemplatesClient } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: TemplatesClient;

beforeAll(async () => {
  ({ t, team, api } = await startTemplatesApp());
});
afterAll(() => t.close());

describe('tenant isolation', () => {
  it("another team's template answers 404 to get, update and delete, and is left untouched", async () => {
    const created = await api.make({ name: 'Private', html: '<p>Secret</p>' });
    const other = await createTeam(t.app);
    const theirs = templatesClient(t.app, other.key);
    for (const response of [
      await theirs.get(created.id),
      await theirs.patch(created.id, { name: 'Stolen' }),
      await theirs.remove(created.id),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(errorOf(response)).toEqual({ code: 'NOT_FOUND', message: 'Template not found' });
    }
    expect((await api.get(created.id)).json()).toEqual(created);
  });

  it('getTemplateForSend reads only the given team', async () => {
    const created = await api.make({
      name: 'Send me',
      subject: 'Hi {{name}}',
      previewText: 'pv',
      html: '<p>Hi {{name}}</p>',
    });
    expect(await getTemplateForSend(t.deps.db, team.id, created.id)).toEqual({
      id: created.id,
      subject: 'Hi {{name}}',
      previewText: 'pv',
      type: 'TRANSACTIONAL',
      html: '<p>Hi {{name}}</p>',
    });
    const other = await createTeam(t.app);
    expect(await getTemplateForSend(t.deps.db, other.id, created.id)).toBeUndefined();
  });
});

describe('access: FULL', () => {
  const endpoints = (id: string) =>
    [
      ['GET', ''],
      ['POST', '', { name: 'x', subject: 'x' }],
      ['GET', `/${id}`],
      ['PATCH', `/${id}`, { name: 'x' }],
      ['DELETE', `/${id}`],
    ] as const;

  for (const kind of ['sending', 'readonly', 'sandbox', 'live_ai'] as const) {
    it(`a ${kind} key gets 403 SCOPE_DENIED on every endpoint`, async () => {
      const created = await api.make();
      const { key } = await team.makeKey(kind);
      const client = templatesClient(t.app, key);
      for (const [method, path, payload] of endpoints(created.id)) {
        const response = await client.call(method, path, payload);
        expect(response.statusCode, `${method} ${path}`).toBe(403);
        expect(errorOf(response).code).toBe('SCOPE_DENIED');
      }
      expect((await api.get(created.id)).json()).toEqual(created);
    });
  }

  it('no key: 401', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/templates' });
    expect(response.statusCode).toBe(401);
  });
});

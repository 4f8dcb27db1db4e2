// Requests to /v1/templates through the real app, as a given API key.
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export function templatesClient(app: FastifyInstance, key: string) {
  const call = (method: Method, path = '', payload?: unknown) =>
    app.inject({
      method,
      url: `/api/v1/templates${path}`,
      headers: bearer(key),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    call,
    list: (query = '') => call('GET', query),
    create: (payload: unknown) => call('POST', '', payload),
    get: (id: string) => call('GET', `/${id}`),
    patch: (id: string, payload: unknown) => call('PATCH', `/${id}`, payload),
    remove: (id: string) => call('DELETE', `/${id}`),
    /** Creates a template and returns its body; fails the test on anything but 200. */
    async make(payload: Record<string, unknown> = {}) {
      const response = await call('POST', '', { name: 'Welcome', subject: 'Hello {{firstName}}', ...payload });
      if (response.statusCode !== 200) throw new Error(`create template: ${response.statusCode} ${response.body}`);
      return response.json() as Template;
    },
  };
}

export type TemplatesClient = ReturnType<typeof templatesClient>;

/** A test app with one team and a client of its full key: what each templates test file starts from. */
export async function startTemplatesApp(): Promise<{ t: TestApp; team: TestTeam; api: TemplatesClient }> {
  const t = await createTestApp();
  const team = await createTeam(t.app);
  return { t, team, api: templatesClient(t.app, team.key) };
}

export const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { code: string; message: string } }).error;

export interface Template {
  id: string;
  name: string;
  subject: string;
  type: 'TRANSACTIONAL' | 'MARKETING';
  previewText: string | null;
  content: string | null;
  html: string | null;
  createdAt: string;
  updatedAt: string;
}

export const doc = (...blocks: unknown[]) => JSON.stringify({ version: 1, blocks });

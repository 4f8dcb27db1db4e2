// Requests to /v1/templates through the real app, as a given API key.
import type { FastifyInstance } from 'fastify';
import { bearer } from '../support/factory.ts';

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

// Requests to /v1/contactBooks and its contacts through the real app, as a given API key.
import type { FastifyInstance } from 'fastify';
import { bearer } from '../support/factory.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Book {
  id: string;
  name: string;
  teamId: number;
  properties: Record<string, string>;
  variables: string[];
  emoji: string;
  doubleOptInEnabled: boolean;
  doubleOptInFrom: string | null;
  doubleOptInSubject: string | null;
  doubleOptInContent: string | null;
  createdAt: string;
  updatedAt: string;
  _count: { contacts: number };
}

export interface Contact {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  subscribed: boolean;
  properties: Record<string, string>;
  contactBookId: string;
  createdAt: string;
  updatedAt: string;
}

export function contactsClient(app: FastifyInstance, key: string) {
  const call = (method: Method, path: string, payload?: unknown) =>
    app.inject({
      method,
      url: `/api/v1/contactBooks${path}`,
      headers: bearer(key),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const contacts = (bookId: string) => `/${bookId}/contacts`;
  return {
    call,
    listBooks: () => call('GET', ''),
    createBook: (payload: unknown) => call('POST', '', payload),
    getBook: (id: string) => call('GET', `/${id}`),
    patchBook: (id: string, payload: unknown) => call('PATCH', `/${id}`, payload),
    deleteBook: (id: string) => call('DELETE', `/${id}`),
    /** Creates a book and returns it; fails on anything but 200. */
    async book(payload: Record<string, unknown> = {}): Promise<Book> {
      const response = await call('POST', '', { name: 'Newsletter', ...payload });
      if (response.statusCode !== 200) throw new Error(`create book: ${response.statusCode} ${response.body}`);
      return response.json() as Book;
    },
    list: (bookId: string, query = '') => call('GET', `${contacts(bookId)}${query}`),
    create: (bookId: string, payload: unknown) => call('POST', contacts(bookId), payload),
    get: (bookId: string, id: string) => call('GET', `${contacts(bookId)}/${id}`),
    patch: (bookId: string, id: string, payload: unknown) => call('PATCH', `${contacts(bookId)}/${id}`, payload),
    put: (bookId: string, id: string, payload: unknown) => call('PUT', `${contacts(bookId)}/${id}`, payload),
    remove: (bookId: string, id: string) => call('DELETE', `${contacts(bookId)}/${id}`),
    bulkAdd: (bookId: string, payload: unknown) => call('POST', `${contacts(bookId)}/bulk`, payload),
    bulkDelete: (bookId: string, payload: unknown) => call('DELETE', `${contacts(bookId)}/bulk`, payload),
    /** Creates a contact and returns its id; fails on anything but 200. */
    async contact(bookId: string, payload: Record<string, unknown>): Promise<string> {
      const response = await call('POST', contacts(bookId), payload);
      if (response.statusCode !== 200) throw new Error(`create contact: ${response.statusCode} ${response.body}`);
      return (response.json() as { contactId: string }).contactId;
    },
    async read(bookId: string, id: string): Promise<Contact> {
      const response = await call('GET', `${contacts(bookId)}/${id}`);
      if (response.statusCode !== 200) throw new Error(`read contact: ${response.statusCode} ${response.body}`);
      return response.json() as Contact;
    },
  };
}

export const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { code: string; message: string } }).error;
export const flatErrorOf = (response: { json(): unknown }) => (response.json() as { error: string }).error;

export const doc = JSON.stringify({
  version: 1,
  blocks: [{ type: 'paragraph', content: ['Please confirm: {{confirmUrl}}'] }],
});

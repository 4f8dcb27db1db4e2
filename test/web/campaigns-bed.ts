// What the Campaigns browser test seeds through the public and admin APIs (on the signed-in bed):
// calls with a team's key, a verified From domain, a book with contacts.
import { uniqueDomain } from '../domains/support.ts';
import { verifiedDomain } from './support/api-seeds.ts';
import type { BedWithDns, SignedInBed } from './support/signed-in.ts';

/** A public API call with a team's key, over HTTP as any client makes it. */
export async function apiCall<T = Record<string, unknown>>(
  bed: SignedInBed,
  key: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${bed.base}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A verified sending domain of the team (api-seeds.ts), by name. */
export async function verifiedDomainName(bed: BedWithDns, key: string): Promise<string> {
  return (await verifiedDomain(bed, key, uniqueDomain())).name;
}

/** A contact book with the given addresses, each a subscribed contact. */
export async function bookWithContacts(bed: SignedInBed, key: string, name: string, emails: string[]) {
  const book = await apiCall<{ id: string }>(bed, key, 'POST', '/v1/contactBooks', { name });
  for (const [i, email] of emails.entries())
    await apiCall(bed, key, 'POST', `/v1/contactBooks/${book.id}/contacts`, { email, firstName: `Reader${i + 1}` });
  return book.id;
}

// Seeds a browser test makes through the public API with a team's full key: a call answering status
// and JSON, and a sending domain verified by the bed's worker against the bed's DNS server.
import { expect } from 'vitest';
import { recordOf, type DomainJson } from '../../domains/support.ts';
import { waitUntil, type BedWithDns, type SignedInBed } from './signed-in.ts';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A request to the public API with `key`, answering status and JSON body. */
export function apiClient(bed: SignedInBed, key: string) {
  return async (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, payload?: unknown) => {
    const response = await bed.t.app.inject({
      method,
      url: `/api${path}`,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: (response.body ? response.json() : null) as Json };
  };
}

/** A domain added through the API, its records published on the bed's DNS server, checked by the worker until verified. */
export async function verifiedDomain(bed: BedWithDns, key: string, name: string): Promise<DomainJson> {
  const call = apiClient(bed, key);
  const created = await call('POST', '/v1/domains', { name, region: 'us-east-1' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const domain = created.body as DomainJson;
  for (const record of domain.dnsRecords)
    if (record.type === 'MX') bed.dns.setMx(record.name, { exchange: record.value, priority: Number(record.priority) });
  for (const kind of ['DKIM', 'SPF', 'DMARC'] as const)
    bed.dns.setTxt(recordOf(domain, kind).name, recordOf(domain, kind).value);
  return waitUntil(
    async () => {
      const { body } = await call('GET', `/v1/domains/${domain.id}`);
      if (body.status === 'SUCCESS') return body as DomainJson;
      // Checked before the records were published (the create makes it due at once): ask again.
      if (!body.isVerifying) await call('PUT', `/v1/domains/${domain.id}/verify`);
      bed.runner.wake();
      return null;
    },
    `the domain ${name} to be verified`,
    60_000,
  );
}

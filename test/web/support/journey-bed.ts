// The Journeys browser test's bed: startSignedInBed's listening Herald with its worker, but with the
// DNS server in reach, so that a team can verify a sending domain through the API (a journey's email
// step must send from one), and the seeds the test makes through the public API with a full key.
import { expect } from 'vitest';
import { createWorkerRunner } from '../../../src/worker.ts';
import { recordOf, type DomainJson } from '../../domains/support.ts';
import { createListeningTestApp } from '../../support/app.ts';
import { TestDnsServer } from '../../support/dns-server.ts';
import type { SignedInBed } from './signed-in.ts';
import { waitUntil } from './signed-in.ts';

export interface JourneyBed extends SignedInBed {
  dns: TestDnsServer;
}

export async function startJourneyBed(): Promise<JourneyBed> {
  const dns = await TestDnsServer.start();
  const t = await createListeningTestApp({ dnsServers: [dns.address] });
  const runner = createWorkerRunner(t.deps);
  await runner.start();
  return {
    t,
    runner,
    dns,
    base: t.deps.config.publicUrl,
    async close() {
      await runner.stop({ timeoutMs: 5_000 });
      await t.close();
      await dns.close();
    },
  };
}

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
export async function verifiedDomain(bed: JourneyBed, key: string, name: string): Promise<DomainJson> {
  const call = apiClient(bed, key);
  const created = await call('POST', '/v1/domains', { name, region: 'us-east-1' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const domain = created.body as DomainJson;
  for (const record of domain.dnsRecords)
    if (record.type === 'MX') bed.dns.setMx(record.name, { exchange: record.value, priority: Number(record.priority) });
  for (const kind of ['DKIM', 'SPF', 'DMARC'] as const)
    bed.dns.setTxt(recordOf(domain, kind).name, recordOf(domain, kind).value);
  return waitUntil(async () => {
    const { body } = await call('GET', `/v1/domains/${domain.id}`);
    if (body.status === 'SUCCESS') return body as DomainJson;
    // Checked before the records were published (the create makes it due at once): ask again.
    if (!body.isVerifying) await call('PUT', `/v1/domains/${domain.id}/verify`);
    bed.runner.wake();
    return null;
  }, `the domain ${name} to be verified`);
}

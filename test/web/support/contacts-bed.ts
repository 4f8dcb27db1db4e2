// The Contacts and Segments browser tests' bed: startSignedInBed's listening Herald with its worker,
// with the DNS server in reach so a team can verify a sending domain through the API (a double
// opt-in book's From must be on one), and a small client for seeding through the public API.
import { expect } from 'vitest';
import { createWorkerRunner } from '../../../src/worker.ts';
import { recordOf, type DomainJson } from '../../domains/support.ts';
import { createListeningTestApp, TEST_ADMIN_TOKEN } from '../../support/app.ts';
import { TestDnsServer } from '../../support/dns-server.ts';
import { waitUntil, type SignedInBed } from './signed-in.ts';

export interface ContactsBed extends SignedInBed {
  dns: TestDnsServer;
}

export async function startContactsBed(): Promise<ContactsBed> {
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

/** The public API with `key`: status and JSON body. */
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

/** A domain added through the API, its records published on the bed's DNS server, verified by the worker. */
export async function verifiedDomain(bed: ContactsBed, key: string, name: string): Promise<DomainJson> {
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

/** The outbox's messages to `to` (the log transport's), newest last. */
export async function outboxTo(bed: SignedInBed, to: string): Promise<{ envelope: { from: string }; raw: string }[]> {
  const response = await bed.t.app.inject({
    method: 'GET',
    url: '/admin/v1/outbox?limit=100',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  return (response.json() as { envelope: { from: string; to: string[] }; raw: string }[]).filter((m) =>
    m.envelope.to.includes(to),
  );
}

/** 2,500 rows; line 11 has a bad address, line 21 repeats line 2's, line 31 a bad subscribed. */
export function peopleCsv(): string {
  const lines = ['email,First Name,plan,subscribed'];
  for (let i = 1; i <= 2500; i++) {
    const line = i + 1;
    const email = line === 11 ? 'not-an-email' : line === 21 ? 'user1@example.com' : `user${i}@example.com`;
    lines.push(`${email},Person ${i},${i % 2 ? 'pro' : 'free'},${line === 31 ? 'maybe' : 'yes'}`);
  }
  return `${lines.join('\n')}\n`;
}

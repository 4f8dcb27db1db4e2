// The Campaigns browser test's bed: the signed-in bed's parts (a listening Herald, its worker, a DNS
// server on loopback), with the DNS server kept, since a campaign's From must be on a verified domain
// and verifying one means publishing its records. Seeding goes through the public and admin APIs.
import { createWorkerRunner } from '../../src/worker.ts';
import { createListeningTestApp, TEST_ADMIN_TOKEN } from '../support/app.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { recordOf, uniqueDomain, type DomainJson } from '../domains/support.ts';
import { waitUntil, type SignedInBed } from './support/signed-in.ts';

export interface CampaignBed extends SignedInBed {
  dns: TestDnsServer;
}

export async function startCampaignBed(): Promise<CampaignBed> {
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

/** A public API call with a team's key, over HTTP as any client makes it. */
export async function apiCall<T = Record<string, unknown>>(
  bed: CampaignBed,
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

/** A domain added with the team's key, its records published, checked by the worker until verified. */
export async function verifiedDomain(bed: CampaignBed, key: string): Promise<string> {
  const domain = await apiCall<DomainJson>(bed, key, 'POST', '/v1/domains', {
    name: uniqueDomain(),
    region: 'us-east-1',
  });
  for (const record of domain.dnsRecords) {
    if (record.type === 'MX') bed.dns.setMx(record.name, { exchange: record.value, priority: Number(record.priority) });
  }
  for (const kind of ['DKIM', 'SPF', 'DMARC'] as const)
    bed.dns.setTxt(recordOf(domain, kind).name, recordOf(domain, kind).value);
  await waitUntil(
    async () => {
      bed.runner.wake();
      const now = await apiCall<DomainJson>(bed, key, 'GET', `/v1/domains/${domain.id}`);
      if (now.status === 'SUCCESS') return now;
      // Checked before the records were published, or an answer lost under load: ask again.
      if (!now.isVerifying) await apiCall(bed, key, 'PUT', `/v1/domains/${domain.id}/verify`);
      return null;
    },
    `domain ${domain.name} verified`,
    60_000,
  );
  return domain.name;
}

/** A contact book with the given addresses, each a subscribed contact. */
export async function bookWithContacts(bed: CampaignBed, key: string, name: string, emails: string[]) {
  const book = await apiCall<{ id: string }>(bed, key, 'POST', '/v1/contactBooks', { name });
  for (const [i, email] of emails.entries())
    await apiCall(bed, key, 'POST', `/v1/contactBooks/${book.id}/contacts`, { email, firstName: `Reader${i + 1}` });
  return book.id;
}

interface OutboxMessage {
  id: string;
  envelope: { from: string; to: string[] };
  raw: string;
}

/** The log transport's outbox (operator API), newest first. */
export async function outbox(bed: CampaignBed): Promise<OutboxMessage[]> {
  const response = await bed.t.app.inject({
    method: 'GET',
    url: '/admin/v1/outbox?limit=100',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  return response.json() as OutboxMessage[];
}

// Helpers for the Domains tests: unique names (files share the worker's database), API calls, the app
// the API test files start from, and the verification tests' bed: the worker and a DNS server on loopback.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { createDnsResolver } from '../../src/adapters/dns.ts';
import { createWorkerRunner } from '../../src/worker.ts';
import { createTestApp } from '../support/app.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { bearer, createTeam } from '../support/factory.ts';

export const MAIL_DOMAIN = 'mail.herald.test';

/** The contract's flat error body (domain 403 and 404). */
export const flat = { error: expect.any(String) };

/** A test app on MAIL_DOMAIN with two teams. */
export async function startDomainsApp() {
  const t = await createTestApp({ config: { mailDomain: MAIL_DOMAIN } });
  return { t, team: await createTeam(t.app), other: await createTeam(t.app) };
}

/** A fresh registrable-looking name, e.g. d3f9a1c2b7e.example.com. */
export function uniqueDomain(parent = 'example.com'): string {
  return `d${randomBytes(5).toString('hex')}.${parent}`;
}

export interface DnsRecordJson {
  type: 'MX' | 'TXT';
  name: string;
  value: string;
  ttl: string;
  priority: string | null;
  status: string;
  recommended: boolean;
}

export interface DomainJson {
  id: number;
  name: string;
  teamId: number;
  status: string;
  publicKey: string;
  dkimStatus: string | null;
  spfDetails: string | null;
  isVerifying: boolean;
  dmarcAdded: boolean;
  errorMessage: string | null;
  verificationError: string | null;
  lastCheckedTime: string | null;
  subdomain: string | null;
  updatedAt: string;
  dnsRecords: DnsRecordJson[];
  [field: string]: unknown;
}

export async function call(
  app: FastifyInstance,
  key: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url: `/api${path}`,
    headers: bearer(key),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

export async function createDomain(
  app: FastifyInstance,
  key: string,
  name = uniqueDomain(),
  region = 'us-east-1',
): Promise<DomainJson> {
  const response = await call(app, key, 'POST', '/v1/domains', { name, region });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

export async function getDomainJson(app: FastifyInstance, key: string, id: number): Promise<DomainJson> {
  const response = await call(app, key, 'GET', `/v1/domains/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The record of one kind in a Domain's dnsRecords. */
export function recordOf(domain: DomainJson, kind: 'DKIM' | 'SPF' | 'MX' | 'DMARC'): DnsRecordJson {
  const found = domain.dnsRecords.find((record) =>
    kind === 'MX'
      ? record.type === 'MX'
      : kind === 'DKIM'
        ? record.name.includes('._domainkey.')
        : kind === 'DMARC'
          ? record.name.startsWith('_dmarc.')
          : record.type === 'TXT' && record.value.startsWith('v=spf1'),
  );
  if (!found) throw new Error(`no ${kind} record in ${JSON.stringify(domain.dnsRecords)}`);
  return found;
}

export const statuses = (domain: DomainJson) =>
  Object.fromEntries((['DKIM', 'SPF', 'MX', 'DMARC'] as const).map((kind) => [kind, recordOf(domain, kind).status]));

export type VerificationBed = Awaited<ReturnType<typeof startVerificationBed>>;

/** A test app asking a DNS server on loopback, the worker, a team, and the steps a verification test takes. */
export async function startVerificationBed() {
  const dns = await TestDnsServer.start();
  const t = await createTestApp({ config: { dnsServers: [dns.address], mailDomain: MAIL_DOMAIN } });
  // The worker exactly as `herald worker` builds it, its resolver with the production timeout and
  // tries: this test process's event loop also answers as the DNS server, and on a busy machine
  // (PGlite runs in that loop too) it can stall past one short timeout, reading as a silent server.
  const runner = createWorkerRunner({
    ...t.deps,
    dns: createDnsResolver({ servers: [dns.address] }),
  });
  await runner.start();
  const team = await createTeam(t.app);

  /** Publishes every record the domain asks for, as the user would. */
  function publishAll(domain: DomainJson): void {
    for (const record of domain.dnsRecords) {
      if (record.type === 'MX') dns.setMx(record.name, { exchange: record.value, priority: Number(record.priority) });
    }
    dns.setTxt(recordOf(domain, 'DKIM').name, recordOf(domain, 'DKIM').value);
    dns.setTxt(recordOf(domain, 'SPF').name, recordOf(domain, 'SPF').value, 'google-site-verification=abc123');
    dns.setTxt(recordOf(domain, 'DMARC').name, recordOf(domain, 'DMARC').value);
  }

  /** Waits for the check the API just requested to finish (the worker was woken by NOTIFY). */
  async function settled(id: number): Promise<DomainJson> {
    await expect
      .poll(async () => (await getDomainJson(t.app, team.key, id)).isVerifying, { timeout: 20_000 })
      .toBe(false);
    return getDomainJson(t.app, team.key, id);
  }

  /** Moves the clock by `ms`, wakes the worker, and waits for a check of the domain at the new time. */
  async function recheckedAfter(id: number, ms: number): Promise<DomainJson> {
    t.clock.advance(ms);
    const now = t.clock.now().toISOString();
    runner.wake();
    await expect
      .poll(async () => (await getDomainJson(t.app, team.key, id)).lastCheckedTime, { timeout: 20_000 })
      .toBe(now);
    return getDomainJson(t.app, team.key, id);
  }

  async function verifyAgain(id: number): Promise<DomainJson> {
    const response = await call(t.app, team.key, 'PUT', `/v1/domains/${id}/verify`);
    expect(response.statusCode).toBe(200);
    return settled(id);
  }

  async function close(): Promise<void> {
    await runner.stop();
    await t.close();
    await dns.close();
  }
  return { dns, t, runner, team, publishAll, settled, recheckedAfter, verifyAgain, close };
}

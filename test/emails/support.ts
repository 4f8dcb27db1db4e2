// The email API tests' harness: the real app, a loopback DNS server and the domain-check queue (as in
// test/domains/verification-*.test.ts) to make verified sending domains, and small request helpers.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { createDnsResolver } from '../../src/adapters/dns.ts';
import { DOMAIN_CHECK_QUEUE, domainCheckQueue } from '../../src/domains/index.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { call, createDomain, getDomainJson, recordOf, type DomainJson } from '../domains/support.ts';
import type { Config } from '../../src/config.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';

const MAIL_DOMAIN = 'mail.herald.test';

export interface EmailHarness {
  t: TestApp;
  app: FastifyInstance;
  /** A team with a verified domain; `from(local)` gives an address on it. */
  team(options?: { plan?: 'free' | 'pro' }): Promise<SendingTeam>;
  close(): Promise<void>;
}

export interface SendingTeam extends TestTeam {
  domain: DomainJson;
  from: (local?: string) => string;
  /** Another verified domain of the same team. */
  addDomain(): Promise<DomainJson>;
}

export async function startEmailHarness(
  options: { config?: Partial<Config>; dns?: TestDnsServer } = {},
): Promise<EmailHarness> {
  const dns = options.dns ?? (await TestDnsServer.start());
  const t = await createTestApp({ config: { dnsServers: [dns.address], mailDomain: MAIL_DOMAIN, ...options.config } });
  // Only the domain checks: no delivery worker, so emails stay as the API stored them.
  const runner = new QueueRunner({
    database: t.deps.database,
    queues: [
      domainCheckQueue({
        dns: createDnsResolver({ servers: [dns.address], timeoutMs: 1000, tries: 2 }),
        mailDomain: MAIL_DOMAIN,
      }),
    ],
    clock: t.clock,
    pollMs: 100,
  });
  await runner.start();

  const verifiedDomain = async (key: string): Promise<DomainJson> => {
    const domain = await createDomain(t.app, key);
    for (const record of domain.dnsRecords) {
      if (record.type === 'MX') dns.setMx(record.name, { exchange: record.value, priority: Number(record.priority) });
    }
    dns.setTxt(recordOf(domain, 'DKIM').name, recordOf(domain, 'DKIM').value);
    dns.setTxt(recordOf(domain, 'SPF').name, recordOf(domain, 'SPF').value);
    dns.setTxt(recordOf(domain, 'DMARC').name, recordOf(domain, 'DMARC').value);
    // The create made the domain due at once; idle() returns once that check (and any the loop asks
    // for) has run: the domain check lane works one batch at a time.
    for (let checks = 0; checks < 10; checks++) {
      await runner.idle(DOMAIN_CHECK_QUEUE);
      const { status, isVerifying } = await getDomainJson(t.app, key, domain.id);
      if (status === 'SUCCESS') return domain;
      // Checked before the records were published, or a DNS answer lost under load (a temporary
      // failure, rechecked only minutes later): ask again.
      if (!isVerifying) await call(t.app, key, 'PUT', `/v1/domains/${domain.id}/verify`);
    }
    throw new Error(`domain ${domain.name} was not verified`);
  };

  return {
    t,
    app: t.app,
    async team(options = {}) {
      const team = await createTeam(t.app, options);
      const domain = await verifiedDomain(team.key);
      return {
        ...team,
        domain,
        from: (local = 'hello') => `${local}@${domain.name}`,
        addDomain: () => verifiedDomain(team.key),
      };
    },
    async close() {
      await runner.stop();
      await t.close();
      if (!options.dns) await dns.close();
    },
  };
}

export async function unverifiedDomain(app: FastifyInstance, key: string): Promise<DomainJson> {
  return createDomain(app, key);
}

export function emails(app: FastifyInstance, key: string) {
  const request = (
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url: `/api/v1/emails${path}`,
      headers: { ...bearer(key), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    request,
    send: (payload: unknown, headers?: Record<string, string>) => request('POST', '', payload, headers),
    batch: (payload: unknown[], headers?: Record<string, string>) => request('POST', '/batch', payload, headers),
    get: (id: string) => request('GET', `/${id}`),
    list: (query = '') => request('GET', query),
    patch: (id: string, payload: unknown) => request('PATCH', `/${id}`, payload),
    cancel: (id: string) => request('POST', `/${id}/cancel`),
    /** Sends and returns the emailId; fails the test on anything but 200. */
    async sent(payload: unknown): Promise<string> {
      const response = await request('POST', '', payload);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { emailId: string }).emailId;
    },
  };
}

export { call };

/** Number of emails stored for a team, read straight from the database. */
export async function storedEmailCount(t: TestApp, teamId: number): Promise<number> {
  const row = await t.deps.db
    .selectFrom('emails')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

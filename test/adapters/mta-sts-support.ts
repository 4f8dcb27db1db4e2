// Shared by test/adapters/mta-sts.test.ts and mta-sts-cache.test.ts: the loopback DNS server and policy
// host for each file, the policy caches it builds on its clock, and what the tests publish.
//
// MTA-STS policy lookup (RFC 8461) against a loopback DNS server and a loopback HTTPS policy host with
// the test CA's certificate. The test certificate's wildcards cover one label, so the only recipient
// domains with a valid policy host are example.com and hooks.test; each test builds its own cache.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createDnsResolver, type DnsResolver } from '../../src/adapters/dns.ts';
import { createMtaStsPolicies, type MtaStsOptions } from '../../src/adapters/mail-transport/mta-sts.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { MtaStsServer } from '../support/mta-sts-server.ts';

export const DOMAIN = 'example.com';
export const OTHER = 'hooks.test';
export const MINUTE = 60_000;

export let dnsServer: TestDnsServer;
let dns: DnsResolver;
export let server: MtaStsServer;

/**
 * Starts the DNS server and the policy host for the calling file. Before each test, `start` sets the
 * file's clock, and the policy hosts have their A records and no TXT record. Answers the file's
 * factory of policy caches, which read the clock through `now`.
 */
export function useMtaStsBed(clock: { now: () => number; start: (time: number) => void }) {
  beforeAll(async () => {
    dnsServer = await TestDnsServer.start();
    dns = createDnsResolver({ servers: [dnsServer.address], timeoutMs: 200, tries: 1 });
    server = await MtaStsServer.start();
  });

  afterAll(async () => {
    await server.close();
    await dnsServer.close();
  });

  beforeEach(() => {
    clock.start(Date.parse('2026-03-01T10:00:00Z'));
    server.reset();
    dnsServer.queries.length = 0;
    for (const domain of [DOMAIN, OTHER]) {
      dnsServer.remove(`_mta-sts.${domain}`);
      dnsServer.set(`mta-sts.${domain}`, 'A', [{ type: 'A', address: '127.0.0.1' }]);
    }
  });

  return function policies(overrides: Partial<MtaStsOptions> = {}) {
    return createMtaStsPolicies({ dns, ca: server.ca, httpsPort: server.port, now: clock.now, ...overrides });
  };
}

export function publishId(domain: string, id: string): void {
  dnsServer.setTxt(`_mta-sts.${domain}`, `v=STSv1; id=${id};`);
}

export const enforce = { mode: 'enforce', mx: ['mx1.example.com', '*.mail.example.com'], maxAge: 86_400 };

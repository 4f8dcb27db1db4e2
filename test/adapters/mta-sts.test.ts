// MTA-STS policy lookup (RFC 8461) against a loopback DNS server and a loopback HTTPS policy host with
// the test CA's certificate. The test certificate's wildcards cover one label, so the only recipient
// domains with a valid policy host are example.com and hooks.test; each test builds its own cache.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDnsResolver, type DnsResolver } from '../../src/adapters/dns.ts';
import {
  createMtaStsPolicies,
  mxMatches,
  type MtaStsOptions,
  type MtaStsPolicy,
} from '../../src/adapters/mail-transport/mta-sts.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { MtaStsServer } from '../support/mta-sts-server.ts';

const DOMAIN = 'example.com';
const OTHER = 'hooks.test';
const MINUTE = 60_000;

let dnsServer: TestDnsServer;
let dns: DnsResolver;
let server: MtaStsServer;
let clock: number;

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
  clock = Date.parse('2026-03-01T10:00:00Z');
  server.reset();
  dnsServer.queries.length = 0;
  for (const domain of [DOMAIN, OTHER]) {
    dnsServer.remove(`_mta-sts.${domain}`);
    dnsServer.set(`mta-sts.${domain}`, 'A', [{ type: 'A', address: '127.0.0.1' }]);
  }
});

function policies(overrides: Partial<MtaStsOptions> = {}) {
  return createMtaStsPolicies({ dns, ca: server.ca, httpsPort: server.port, now: () => clock, ...overrides });
}

function publishId(domain: string, id: string): void {
  dnsServer.setTxt(`_mta-sts.${domain}`, `v=STSv1; id=${id};`);
}

const txtQueries = (domain: string) => dnsServer.queries.filter((query) => query.startsWith(`TXT _mta-sts.${domain} `));

const enforce = { mode: 'enforce', mx: ['mx1.example.com', '*.mail.example.com'], maxAge: 86_400 };

describe('policy discovery and fetch', () => {
  it('finds an enforce policy through the TXT id and fetches it from mta-sts.<domain>', async () => {
    publishId(DOMAIN, '20260301T1');
    server.servePolicy(DOMAIN, enforce);

    expect(await policies().policyFor('Example.COM.')).toEqual({
      mode: 'enforce',
      mx: ['mx1.example.com', '*.mail.example.com'],
      maxAgeSeconds: 86_400,
      id: '20260301T1',
    });
    expect(server.requests).toEqual(['mta-sts.example.com /.well-known/mta-sts.txt']);
    // The policy host was resolved through the given DNS server, not the system's.
    expect(dnsServer.queries).toContain('A mta-sts.example.com over udp');
  });

  it('returns a testing policy as such', async () => {
    publishId(OTHER, 'abc');
    server.servePolicy(OTHER, { mode: 'testing', mx: ['mx.hooks.test'], maxAge: 600 });

    expect(await policies().policyFor(OTHER)).toEqual({
      mode: 'testing',
      mx: ['mx.hooks.test'],
      maxAgeSeconds: 600,
      id: 'abc',
    });
  });

  it('falls back to the AAAA record of the policy host', async () => {
    publishId(DOMAIN, 'v6');
    server.servePolicy(DOMAIN, enforce);
    dnsServer.set(`mta-sts.${DOMAIN}`, 'A', []);
    dnsServer.set(`mta-sts.${DOMAIN}`, 'AAAA', [{ type: 'AAAA', address: '::1' }]);

    // The server listens on 127.0.0.1 only, so the attempt on ::1 fails: it shows the AAAA answer was used.
    const policy = await policies().policyFor(DOMAIN);
    expect(dnsServer.queries).toContain('AAAA mta-sts.example.com over udp');
    expect(policy).toMatchObject({ mode: 'none', error: expect.stringContaining('::1') });
  });

  it('is none without error when there is no TXT record, and fetches nothing', async () => {
    server.servePolicy(DOMAIN, enforce);

    expect(await policies().policyFor(DOMAIN)).toEqual({ mode: 'none' });
    expect(server.requests).toEqual([]);
  });

  it('ignores a TXT record that is not STSv1', async () => {
    dnsServer.setTxt(`_mta-sts.${DOMAIN}`, 'v=spf1 -all');
    server.servePolicy(DOMAIN, enforce);

    expect(await policies().policyFor(DOMAIN)).toEqual({ mode: 'none' });
    expect(server.requests).toEqual([]);
  });

  it('is none with an error when there are two STSv1 records (RFC 8461 3.1)', async () => {
    dnsServer.setTxt(`_mta-sts.${DOMAIN}`, 'v=STSv1; id=a;', 'v=STSv1; id=b;');
    server.servePolicy(DOMAIN, enforce);

    expect(await policies().policyFor(DOMAIN)).toEqual({
      mode: 'none',
      error: expect.stringContaining('multi_sts_records'),
    });
    expect(server.requests).toEqual([]);
  });

  it('is none with an error when the TXT lookup fails', async () => {
    dnsServer.behave(`_mta-sts.${DOMAIN}`, 'servfail');

    const policy = await policies().policyFor(DOMAIN);
    expect(policy.mode).toBe('none');
    expect(policy.error).toMatch(/TXT/);
  });

  it('is none when the policy file says mode none', async () => {
    publishId(DOMAIN, 'off');
    server.servePolicy(DOMAIN, { mode: 'none', mx: [], maxAge: 86_400 });

    expect(await policies().policyFor(DOMAIN)).toEqual({ mode: 'none' });
  });
});

describe('fetch failures', () => {
  it('rejects a certificate it cannot verify: none with the error, not retried for five minutes', async () => {
    publishId(DOMAIN, 'id1');
    server.servePolicy(DOMAIN, enforce);
    const untrusting = policies({ ca: undefined });

    const first = await untrusting.policyFor(DOMAIN);
    expect(first.mode).toBe('none');
    expect(first.error).toMatch(/certificate/i);
    expect(server.requests).toEqual([]);

    clock += 4 * MINUTE;
    expect((await untrusting.policyFor(DOMAIN)).error).toBe(first.error);
    expect(untrusting.stats()).toMatchObject({ policyFetches: 1, fetchFailures: 1 });

    clock += 2 * MINUTE;
    await untrusting.policyFor(DOMAIN);
    expect(untrusting.stats()).toMatchObject({ policyFetches: 2, fetchFailures: 2 });

    // The same host with the test CA added verifies.
    expect((await policies().policyFor(DOMAIN)).mode).toBe('enforce');
  });

  it.each([
    ['a 404', { status: 404, body: 'nope' }, /HTTP 404/],
    ['a redirect', { status: 301, headers: { location: 'https://mta-sts.hooks.test/.well-known/mta-sts.txt' } }, /301/],
    [
      'another media type',
      { status: 200, body: 'version: STSv1', headers: { 'content-type': 'text/html' } },
      /text\/html/,
    ],
    [
      'a body over 64 KB',
      { status: 200, body: 'x'.repeat(70_000), headers: { 'content-type': 'text/plain' } },
      /65536 bytes/,
    ],
    [
      'an invalid policy',
      {
        status: 200,
        body: 'version: STSv1\r\nmode: enforce\r\nmax_age: 60\r\n',
        headers: { 'content-type': 'text/plain' },
      },
      /mx/i,
    ],
  ])('is none with an error for %s', async (_name, answer, error) => {
    publishId(DOMAIN, 'id1');
    server.answer(DOMAIN, answer);
    server.servePolicy(OTHER, enforce);

    const policy = await policies().policyFor(DOMAIN);
    expect(policy.mode).toBe('none');
    expect(policy.error).toMatch(error);
    // A redirect is never followed (RFC 8461 3.3).
    expect(server.requestsFor(OTHER)).toEqual([]);
  });

  it('gives up on a policy host that does not answer within timeoutMs', async () => {
    publishId(DOMAIN, 'id1');
    server.answer(DOMAIN, 'hang');

    const policy = await policies({ timeoutMs: 200 }).policyFor(DOMAIN);
    expect(policy).toEqual({ mode: 'none', error: expect.stringMatching(/no answer within 200 ms/) });
  });

  it('keeps using an unexpired cached policy when a new id cannot be fetched', async () => {
    publishId(DOMAIN, 'id1');
    server.servePolicy(DOMAIN, enforce);
    const cache = policies();
    await cache.policyFor(DOMAIN);

    publishId(DOMAIN, 'id2');
    server.answer(DOMAIN, { status: 500 });
    clock += 6 * MINUTE;
    const policy = await cache.policyFor(DOMAIN);
    expect(policy).toMatchObject({ mode: 'enforce', id: 'id1', mx: enforce.mx });
    expect(policy.error).toMatch(/HTTP 500/);
  });
});

describe('caching', () => {
  it('keeps a policy for max_age: no fetch while the id is unchanged, a refetch once it expires', async () => {
    publishId(DOMAIN, 'id1');
    server.servePolicy(DOMAIN, { ...enforce, maxAge: 3600 });
    const cache = policies();
    await cache.policyFor(DOMAIN);

    // Within the TXT cache time: neither DNS nor HTTPS is asked again.
    clock += 4 * MINUTE;
    expect((await cache.policyFor(DOMAIN)).mode).toBe('enforce');
    expect(txtQueries(DOMAIN)).toHaveLength(1);
    expect(server.requests).toHaveLength(1);

    // TXT asked again, same id: the cached policy stands.
    clock += 2 * MINUTE;
    expect((await cache.policyFor(DOMAIN)).mode).toBe('enforce');
    expect(txtQueries(DOMAIN)).toHaveLength(2);
    expect(server.requests).toHaveLength(1);

    clock += 60 * MINUTE;
    expect((await cache.policyFor(DOMAIN)).mode).toBe('enforce');
    expect(server.requests).toHaveLength(2);
    expect(cache.stats()).toMatchObject({ entries: 1, policyFetches: 2, fetchFailures: 0 });
  });

  it('refetches when the TXT id changes, once the TXT answer is stale', async () => {
    publishId(DOMAIN, 'id1');
    server.servePolicy(DOMAIN, enforce);
    const cache = policies();
    await cache.policyFor(DOMAIN);

    publishId(DOMAIN, 'id2');
    server.servePolicy(DOMAIN, { mode: 'testing', mx: ['mx2.example.com'], maxAge: 86_400 });
    clock += 1 * MINUTE;
    expect(await cache.policyFor(DOMAIN)).toMatchObject({ mode: 'enforce', id: 'id1' });

    clock += 5 * MINUTE;
    expect(await cache.policyFor(DOMAIN)).toEqual({
      mode: 'testing',
      mx: ['mx2.example.com'],
      maxAgeSeconds: 86_400,
      id: 'id2',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('applies a cached policy after its TXT record is removed, until the policy expires', async () => {
    publishId(DOMAIN, 'id1');
    server.servePolicy(DOMAIN, { ...enforce, maxAge: 3600 });
    const cache = policies();
    await cache.policyFor(DOMAIN);

    dnsServer.remove(`_mta-sts.${DOMAIN}`);
    clock += 10 * MINUTE;
    expect(await cache.policyFor(DOMAIN)).toMatchObject({ mode: 'enforce', id: 'id1' });

    clock += 60 * MINUTE;
    expect(await cache.policyFor(DOMAIN)).toEqual({ mode: 'none' });
    expect(server.requests).toHaveLength(1);
  });

  it('shares one lookup between concurrent callers', async () => {
    publishId(DOMAIN, 'id1');
    server.servePolicy(DOMAIN, enforce);
    const cache = policies();

    const results = await Promise.all([cache.policyFor(DOMAIN), cache.policyFor('example.com.')]);
    expect(results.map((policy) => policy.mode)).toEqual(['enforce', 'enforce']);
    expect(server.requests).toHaveLength(1);
  });

  it('remembers at most maxEntries domains', async () => {
    publishId(DOMAIN, 'id1');
    publishId(OTHER, 'id1');
    server.servePolicy(DOMAIN, enforce);
    server.servePolicy(OTHER, enforce);
    const cache = policies({ maxEntries: 1 });

    await cache.policyFor(DOMAIN);
    await cache.policyFor(OTHER);
    expect(cache.stats().entries).toBe(1);
    await cache.policyFor(DOMAIN);
    expect(server.requestsFor(DOMAIN)).toHaveLength(2);
  });
});

describe('mxMatches (RFC 8461 4.1)', () => {
  const policy: MtaStsPolicy = {
    mode: 'enforce',
    mx: ['mx1.example.com', '*.mail.example.com'],
    maxAgeSeconds: 86_400,
    id: 'x',
  };

  it.each([
    ['mx1.example.com', true],
    ['MX1.Example.COM.', true],
    ['a.mail.example.com', true],
    ['A.MAIL.example.com.', true],
    ['mail.example.com', false],
    ['a.b.mail.example.com', false],
    ['mx2.example.com', false],
    ['xmail.example.com', false],
    ['evilmx1.example.com', false],
  ])('%s matches: %s', (host, expected) => {
    expect(mxMatches(policy, host)).toBe(expected);
  });

  it('allows any host under mode none', () => {
    expect(mxMatches({ mode: 'none' }, 'anything.test')).toBe(true);
  });
});

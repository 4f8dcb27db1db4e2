// MTA-STS policy caching (max_age, a changed or removed TXT id, concurrent callers, maxEntries), and
// which MX hosts a policy allows (mxMatches).
import { describe, expect, it } from 'vitest';
import { mxMatches, type MtaStsPolicy } from '../../src/adapters/mail-transport/mta-sts.ts';
import { DOMAIN, dnsServer, enforce, MINUTE, OTHER, publishId, server, useMtaStsBed } from './mta-sts-support.ts';

/** The time the policy caches read: the bed sets it before each test, the test moves it on. */
let clock: number;
const policies = useMtaStsBed({ now: () => clock, start: (time) => (clock = time) });

const txtQueries = (domain: string) => dnsServer.queries.filter((query) => query.startsWith(`TXT _mta-sts.${domain} `));

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

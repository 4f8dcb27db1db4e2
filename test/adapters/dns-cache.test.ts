// The DNS answer cache of direct delivery, over the real resolver and the loopback DNS server: what
// the server is asked (its `queries`) shows when an answer came from the cache. Time is an injected
// clock, moved by the tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCachingDnsResolver } from '../../src/adapters/dns-cache.ts';
import { createDnsResolver, DnsLookupError, type DnsResolver } from '../../src/adapters/dns.ts';
import { TestDnsServer } from '../support/dns-server.ts';

let dnsServer: TestDnsServer;
let inner: DnsResolver;
beforeAll(async () => {
  dnsServer = await TestDnsServer.start();
  inner = createDnsResolver({ servers: [dnsServer.address], timeoutMs: 1000, tries: 1 });
});
afterAll(() => dnsServer.close());

function cachedResolver(options: { maxEntries?: number; over?: DnsResolver } = {}) {
  let clock = 1_000_000;
  const dns = createCachingDnsResolver(options.over ?? inner, { maxEntries: options.maxEntries, now: () => clock });
  return {
    dns,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

/** How often the server has been asked for `type` at `name`. */
function asked(type: string, name: string): number {
  return dnsServer.queries.filter((query) => query.startsWith(`${type} ${name} `)).length;
}

async function notFound(lookup: Promise<unknown>): Promise<DnsLookupError> {
  const error = await lookup.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DnsLookupError);
  expect((error as DnsLookupError).kind).toBe('NOT_FOUND');
  return error as DnsLookupError;
}

describe('DNS answer cache', () => {
  it('answers A again from the cache within the TTL and asks again once it has passed', async () => {
    dnsServer.set('ttl.cache.test', 'A', [{ type: 'A', address: '192.0.2.1', ttl: 30 }]);
    const { dns, advance } = cachedResolver();
    expect(await dns.resolve4('ttl.cache.test')).toEqual(['192.0.2.1']);
    advance(29_999);
    expect(await dns.resolve4('ttl.cache.test')).toEqual(['192.0.2.1']);
    expect(asked('A', 'ttl.cache.test')).toBe(1);
    advance(1);
    expect(await dns.resolve4('ttl.cache.test')).toEqual(['192.0.2.1']);
    expect(asked('A', 'ttl.cache.test')).toBe(2);
    expect(dns.stats()).toEqual({ hits: 1, misses: 2, entries: 1 });
  });

  it('keeps AAAA for the shortest TTL among the answers', async () => {
    dnsServer.set('v6.cache.test', 'AAAA', [
      { type: 'AAAA', address: '2001:db8::1', ttl: 100 },
      { type: 'AAAA', address: '2001:db8::2', ttl: 20 },
    ]);
    const { dns, advance } = cachedResolver();
    expect(await dns.resolve6('v6.cache.test')).toEqual(['2001:db8::1', '2001:db8::2']);
    advance(19_999);
    await dns.resolve6('v6.cache.test');
    expect(asked('AAAA', 'v6.cache.test')).toBe(1);
    advance(1);
    await dns.resolve6('v6.cache.test');
    expect(asked('AAAA', 'v6.cache.test')).toBe(2);
  });

  it('caps a long TTL at one hour and holds a zero TTL for one second', async () => {
    dnsServer.set('long.cache.test', 'A', [{ type: 'A', address: '192.0.2.2', ttl: 86_400 }]);
    dnsServer.set('zero.cache.test', 'A', [{ type: 'A', address: '192.0.2.3', ttl: 0 }]);
    const { dns, advance } = cachedResolver();
    await dns.resolve4('long.cache.test');
    await dns.resolve4('zero.cache.test');
    await dns.resolve4('zero.cache.test');
    expect(asked('A', 'zero.cache.test')).toBe(1);
    advance(1_000);
    await dns.resolve4('zero.cache.test');
    expect(asked('A', 'zero.cache.test')).toBe(2);
    advance(3_598_999);
    await dns.resolve4('long.cache.test');
    expect(asked('A', 'long.cache.test')).toBe(1);
    advance(1);
    await dns.resolve4('long.cache.test');
    expect(asked('A', 'long.cache.test')).toBe(2);
  });

  it('keeps MX for 300 s whatever the record says, since node:dns cannot report its TTL', async () => {
    dnsServer.setMx('mx.cache.test', { exchange: 'in.mx.cache.test', priority: 10, ttl: 10 });
    const { dns, advance } = cachedResolver();
    expect(await dns.resolveMx('mx.cache.test')).toMatchObject([{ exchange: 'in.mx.cache.test', priority: 10 }]);
    advance(299_999);
    await dns.resolveMx('mx.cache.test');
    expect(asked('MX', 'mx.cache.test')).toBe(1);
    advance(1);
    await dns.resolveMx('mx.cache.test');
    expect(asked('MX', 'mx.cache.test')).toBe(2);
  });

  it('keeps "no such record" for 60 s and reports it as NOT_FOUND each time', async () => {
    dnsServer.set('v4only.cache.test', 'A', [{ type: 'A', address: '192.0.2.4' }]);
    const { dns, advance } = cachedResolver();
    // NXDOMAIN, and a name that exists without the type asked for (NODATA).
    await notFound(dns.resolveMx('nxdomain.cache.test'));
    await notFound(dns.resolve6('v4only.cache.test'));
    advance(59_999);
    const first = await notFound(dns.resolveMx('nxdomain.cache.test'));
    const second = await notFound(dns.resolveMx('nxdomain.cache.test'));
    expect(first).not.toBe(second);
    expect(second).toMatchObject({ code: 'ENOTFOUND', hostname: 'nxdomain.cache.test' });
    expect((await notFound(dns.resolve6('v4only.cache.test'))).code).toBe('ENODATA');
    expect(asked('MX', 'nxdomain.cache.test')).toBe(1);
    expect(asked('AAAA', 'v4only.cache.test')).toBe(1);
    // Published since: found once the minute is up.
    dnsServer.setMx('nxdomain.cache.test', { exchange: 'in.nxdomain.cache.test', priority: 5 });
    advance(1);
    expect(await dns.resolveMx('nxdomain.cache.test')).toMatchObject([
      { exchange: 'in.nxdomain.cache.test', priority: 5 },
    ]);
    expect(asked('MX', 'nxdomain.cache.test')).toBe(2);
  });

  it('never keeps a temporary failure (SERVFAIL)', async () => {
    dnsServer.set('servfail.cache.test', 'A', [{ type: 'A', address: '192.0.2.5' }]);
    dnsServer.behave('servfail.cache.test', 'servfail');
    const { dns } = cachedResolver();
    await expect(dns.resolve4('servfail.cache.test')).rejects.toMatchObject({ kind: 'TEMPORARY' });
    const askedAfterFailure = asked('A', 'servfail.cache.test');
    expect(dns.stats().entries).toBe(0);
    dnsServer.behave('servfail.cache.test', 'answer');
    expect(await dns.resolve4('servfail.cache.test')).toEqual(['192.0.2.5']);
    expect(asked('A', 'servfail.cache.test')).toBeGreaterThan(askedAfterFailure);
  });

  it('sends one query for concurrent lookups of the same name and type', async () => {
    dnsServer.set('burst.cache.test', 'A', [{ type: 'A', address: '192.0.2.6' }]);
    const { dns } = cachedResolver();
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => dns.resolve4('burst.cache.test')));
    expect(answers).toEqual(Array(5).fill(['192.0.2.6']));
    const failures = await Promise.allSettled([1, 2, 3].map(() => dns.resolveMx('burst-nx.cache.test')));
    expect(failures.map((failure) => failure.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(asked('A', 'burst.cache.test')).toBe(1);
    expect(asked('MX', 'burst-nx.cache.test')).toBe(1);
    expect(dns.stats()).toMatchObject({ hits: 6, misses: 2 });
  });

  it('holds at most maxEntries answers, dropping the least recently used', async () => {
    for (const name of ['one', 'two', 'three']) {
      dnsServer.set(`${name}.bound.cache.test`, 'A', [{ type: 'A', address: '192.0.2.7' }]);
    }
    const { dns } = cachedResolver({ maxEntries: 2 });
    await dns.resolve4('one.bound.cache.test');
    await dns.resolve4('two.bound.cache.test');
    await dns.resolve4('one.bound.cache.test'); // used again: "two" is now the oldest
    await dns.resolve4('three.bound.cache.test');
    expect(dns.stats().entries).toBe(2);
    await dns.resolve4('one.bound.cache.test');
    expect(asked('A', 'one.bound.cache.test')).toBe(1);
    await dns.resolve4('two.bound.cache.test');
    expect(asked('A', 'two.bound.cache.test')).toBe(2);
    expect(dns.stats().entries).toBe(2);
  });

  it('passes TXT through uncached, so DKIM and domain checks see new records at once', async () => {
    dnsServer.setTxt('txt.cache.test', 'v=spf1 -all');
    const { dns } = cachedResolver();
    expect(await dns.resolveTxt('txt.cache.test')).toEqual(['v=spf1 -all']);
    dnsServer.setTxt('txt.cache.test', 'v=spf1 mx -all');
    expect(await dns.resolveTxt('txt.cache.test')).toEqual(['v=spf1 mx -all']);
    expect(asked('TXT', 'txt.cache.test')).toBe(2);
    expect(dns.stats()).toEqual({ hits: 0, misses: 0, entries: 0 });
  });

  it('treats names case-insensitively and hands each caller its own copy of the answer', async () => {
    dnsServer.set('case.cache.test', 'A', [{ type: 'A', address: '192.0.2.8' }]);
    const { dns } = cachedResolver();
    const first = await dns.resolve4('Case.Cache.Test');
    first.push('203.0.113.1');
    // Passed around unbound, as the direct transport does.
    const { resolve4 } = dns;
    expect(await resolve4('case.cache.test.')).toEqual(['192.0.2.8']);
    expect(asked('A', 'case.cache.test')).toBe(1);
  });

  it('keeps A answers for 300 s over a resolver that gives no TTLs', async () => {
    dnsServer.set('nottl.cache.test', 'A', [{ type: 'A', address: '192.0.2.9', ttl: 5 }]);
    const plain: DnsResolver = {
      resolveTxt: (name) => inner.resolveTxt(name),
      resolveMx: (name) => inner.resolveMx(name),
      resolve4: (name) => inner.resolve4(name),
      resolve6: (name) => inner.resolve6(name),
    };
    const { dns, advance } = cachedResolver({ over: plain });
    await dns.resolve4('nottl.cache.test');
    advance(299_999);
    await dns.resolve4('nottl.cache.test');
    expect(asked('A', 'nottl.cache.test')).toBe(1);
    advance(1);
    await dns.resolve4('nottl.cache.test');
    expect(asked('A', 'nottl.cache.test')).toBe(2);
  });
});

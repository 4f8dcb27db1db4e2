// The DNS adapter against the loopback DNS server: answers as the service reads them, and failures
// sorted into "the record is not there" and "could not ask right now".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsResolver, DnsLookupError, type DnsResolver } from '../../src/adapters/dns.ts';
import { TestDnsServer } from '../support/dns-server.ts';

let server: TestDnsServer;
let dns: DnsResolver;
beforeAll(async () => {
  server = await TestDnsServer.start();
  dns = createDnsResolver({ servers: [server.address], timeoutMs: 150, tries: 1 });
});
afterAll(() => server.close());

async function failure(lookup: Promise<unknown>): Promise<DnsLookupError> {
  const error = await lookup.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DnsLookupError);
  return error as DnsLookupError;
}

describe('DNS adapter', () => {
  it('joins the character-strings of each TXT record and reads MX, A and AAAA', async () => {
    server.setTxt('records.adapter.test', ['v=spf1 ', 'include:a.test ', '~all'], 'second record');
    server.setMx(
      'records.adapter.test',
      { exchange: 'mx1.adapter.test', priority: 10 },
      { exchange: 'mx2.adapter.test', priority: 20 },
    );
    server.set('records.adapter.test', 'A', [{ type: 'A', address: '192.0.2.7' }]);
    server.set('records.adapter.test', 'AAAA', [{ type: 'AAAA', address: '2001:db8::7' }]);
    expect((await dns.resolveTxt('records.adapter.test')).sort()).toEqual([
      'second record',
      'v=spf1 include:a.test ~all',
    ]);
    expect(
      (await dns.resolveMx('records.adapter.test')).map(({ exchange, priority }) => ({ exchange, priority })),
    ).toEqual([
      { exchange: 'mx1.adapter.test', priority: 10 },
      { exchange: 'mx2.adapter.test', priority: 20 },
    ]);
    expect(await dns.resolve4('records.adapter.test')).toEqual(['192.0.2.7']);
    expect(await dns.resolve6('records.adapter.test')).toEqual(['2001:db8::7']);
  });

  it('a name that does not exist, or has no record of the type, is NOT_FOUND', async () => {
    expect(await failure(dns.resolveTxt('missing.adapter.test'))).toMatchObject({
      kind: 'NOT_FOUND',
      code: 'ENOTFOUND',
    });
    server.setTxt('txt-only.adapter.test', 'hello');
    expect(await failure(dns.resolveMx('txt-only.adapter.test'))).toMatchObject({ kind: 'NOT_FOUND', code: 'ENODATA' });
  });

  it('SERVFAIL and a server that does not answer are TEMPORARY', async () => {
    server.behave('broken.adapter.test', 'servfail');
    expect(await failure(dns.resolveTxt('broken.adapter.test'))).toMatchObject({
      kind: 'TEMPORARY',
      code: 'ESERVFAIL',
    });
    server.behave('silent.adapter.test', 'silent');
    expect(await failure(dns.resolveTxt('silent.adapter.test'))).toMatchObject({ kind: 'TEMPORARY', code: 'ETIMEOUT' });
  });

  it('a server nobody listens on is TEMPORARY, never NOT_FOUND', async () => {
    const closed = await TestDnsServer.start();
    const address = closed.address;
    await closed.close();
    const error = await failure(
      createDnsResolver({ servers: [address], timeoutMs: 150, tries: 1 }).resolveTxt('any.adapter.test'),
    );
    expect(error.kind).toBe('TEMPORARY');
  });

  it('accepts every HERALD_DNS_SERVERS form: ip, ip:port, [ipv6]:port', () => {
    expect(() => createDnsResolver({ servers: ['127.0.0.1', '127.0.0.1:5353', '::1', '[::1]:5353'] })).not.toThrow();
  });
});

// MTA-STS policy discovery through the TXT record and fetch from the policy host (RFC 8461), and the
// fetches that fail: an unverifiable certificate, HTTP errors, redirects, bad policies, timeouts.
import { describe, expect, it } from 'vitest';
import { DOMAIN, dnsServer, enforce, MINUTE, OTHER, publishId, server, useMtaStsBed } from './mta-sts-support.ts';

/** The time the policy caches read: the bed sets it before each test, the test moves it on. */
let clock: number;
const policies = useMtaStsBed({ now: () => clock, start: (time) => (clock = time) });

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

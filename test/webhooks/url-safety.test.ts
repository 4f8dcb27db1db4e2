// The webhook URL check against the loopback DNS server: every hostile form of URL is refused with
// a reason naming the problem, public names are accepted, and HERALD_WEBHOOK_ALLOW_CIDRS exempts
// exactly its ranges (and, for hosts wholly inside them, accepts http, localhost and IP literals).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsResolver, type DnsResolver } from '../../src/adapters/dns.ts';
import {
  checkWebhookUrl,
  isPublicAddress,
  parseAllowCidrs,
  resolveCheckedAddresses,
  UnsafeWebhookHostError,
} from '../../src/webhooks/url-safety.ts';
import { TestDnsServer } from '../support/dns-server.ts';

let server: TestDnsServer;
let dns: DnsResolver;

const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

function a(name: string, ...addresses: string[]) {
  server.set(
    name,
    'A',
    addresses.map((address) => ({ type: 'A', address })),
  );
}
function aaaa(name: string, ...addresses: string[]) {
  server.set(
    name,
    'AAAA',
    addresses.map((address) => ({ type: 'AAAA', address })),
  );
}

// Names under safety.test resolving to non-public addresses; each gets a URL in the table below.
const PRIVATE_A: Record<string, string> = {
  'ten.safety.test': '10.0.0.1',
  'one72.safety.test': '172.16.5.4',
  'one72-top.safety.test': '172.31.255.255',
  'one92.safety.test': '192.168.1.1',
  'loop.safety.test': '127.0.0.1',
  'loop-other.safety.test': '127.45.6.7',
  'metadata.safety.test': '169.254.169.254',
  'cgnat.safety.test': '100.64.0.1',
  'zero.safety.test': '0.0.0.0',
  'multicast.safety.test': '224.0.0.1',
  'class-e.safety.test': '240.0.0.1',
  'broadcast.safety.test': '255.255.255.255',
  'docs.safety.test': '192.0.2.1',
  'ietf.safety.test': '192.0.0.8',
  'bench.safety.test': '198.18.0.1',
};
const PRIVATE_AAAA: Record<string, string> = {
  'loop6.safety.test': '::1',
  'ula6.safety.test': 'fd00::1',
  'mapped6.safety.test': '::ffff:10.0.0.1',
  'nat64.safety.test': '64:ff9b::7f00:1',
  'linklocal6.safety.test': 'fe80::1',
  'docs6.safety.test': '2001:db8::1',
  'sitelocal6.safety.test': 'fec0::1',
  'compat6.safety.test': '::7f00:1',
};

beforeAll(async () => {
  server = await TestDnsServer.start();
  dns = createDnsResolver({ servers: [server.address], timeoutMs: 300, tries: 1 });
  a('public.safety.test', PUBLIC_V4);
  aaaa('public.safety.test', PUBLIC_V6);
  aaaa('public6.safety.test', PUBLIC_V6);
  for (const [name, address] of Object.entries(PRIVATE_A)) a(name, address);
  for (const [name, address] of Object.entries(PRIVATE_AAAA)) aaaa(name, address);
  a('mixed-a.safety.test', PUBLIC_V4, '10.1.2.3');
  a('mixed-aaaa.safety.test', PUBLIC_V4);
  aaaa('mixed-aaaa.safety.test', 'fd12:3456::1');
  server.setTxt('txt-only.safety.test', 'no address here');
  server.behave('servfail.safety.test', 'servfail');
});
afterAll(() => server.close());

const SCHEME = /must use https/;
const USERINFO = /user name or password/;
const IP_LITERAL = /must be a name, not an IP address/;
const LOCALHOST = /must not be localhost/;
const SINGLE_LABEL = /fully qualified/;
const NON_PUBLIC = /resolves to a non-public address/;
const NO_RESOLVE = /does not resolve/;

const hostile: [url: string, reason: RegExp][] = [
  ['http://public.safety.test/hook', SCHEME],
  ['ftp://public.safety.test/hook', SCHEME],
  ['javascript:alert(1)', SCHEME],
  ['https://user:pass@public.safety.test/hook', USERINFO],
  ['https://user@public.safety.test/hook', USERINFO],
  ['https://public.safety.test@10.0.0.1/hook', USERINFO],
  ['https://2130706433/', IP_LITERAL],
  ['https://0x7f.1/', IP_LITERAL],
  ['https://017700000001/', IP_LITERAL],
  ['https://0x7f000001/', IP_LITERAL],
  ['https://127.1/', IP_LITERAL],
  ['https://127.0.0.1:8443/', IP_LITERAL],
  ['https://10.0.0.1/', IP_LITERAL],
  ['https://169.254.169.254/latest/meta-data/', IP_LITERAL],
  ['https://93.184.216.34/', IP_LITERAL],
  ['https://[::1]/', IP_LITERAL],
  ['https://[::]/', IP_LITERAL],
  ['https://[fe80::1]/', IP_LITERAL],
  ['https://[fc00::1]/', IP_LITERAL],
  ['https://[fd00::1]/', IP_LITERAL],
  ['https://[ff02::1]/', IP_LITERAL],
  ['https://[::ffff:127.0.0.1]/', IP_LITERAL],
  ['https://[::ffff:7f00:1]/', IP_LITERAL],
  ['https://[64:ff9b::a00:1]/', IP_LITERAL],
  ['https://[2002:7f00:1::]/', IP_LITERAL],
  ['https://[2001:0::]/', IP_LITERAL],
  ['https://[2606:2800:220:1:248:1893:25c8:1946]/', IP_LITERAL],
  ['https://localhost/', LOCALHOST],
  ['https://localhost./', LOCALHOST],
  ['https://LOCALHOST:8443/', LOCALHOST],
  ['https://a.localhost/', LOCALHOST],
  ['https://intranet/', SINGLE_LABEL],
  ['https://intranet./', SINGLE_LABEL],
  ['not a url', /not a valid URL/],
  [`https://public.safety.test/${'a'.repeat(2_048)}`, /at most 2048 characters/],
  ...Object.keys(PRIVATE_A).map((name): [string, RegExp] => [`https://${name}/hook`, NON_PUBLIC]),
  ...Object.keys(PRIVATE_AAAA).map((name): [string, RegExp] => [`https://${name}/hook`, NON_PUBLIC]),
  ['https://mixed-a.safety.test/hook', NON_PUBLIC],
  ['https://mixed-aaaa.safety.test/hook', NON_PUBLIC],
  ['https://nxdomain.safety.test/hook', NO_RESOLVE],
  ['https://txt-only.safety.test/hook', NO_RESOLVE],
  ['https://servfail.safety.test/hook', /could not be resolved right now; try again/],
];

describe('checkWebhookUrl', () => {
  it('has a table of at least 45 hostile URLs', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(45);
  });

  it.each(hostile)('refuses %s', async (url, reason) => {
    const result = await checkWebhookUrl(url, { dns, allowCidrs: [] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('names the refused address', async () => {
    expect(await checkWebhookUrl('https://mixed-a.safety.test/', { dns, allowCidrs: [] })).toEqual({
      ok: false,
      reason: 'url host resolves to a non-public address (10.1.2.3)',
    });
  });

  it('accepts a public name (A and AAAA), an IPv6-only public name, and a trailing dot', async () => {
    for (const url of [
      'https://public.safety.test/hook?x=1',
      'https://public6.safety.test:8443/',
      'https://public.safety.test./',
    ]) {
      const result = await checkWebhookUrl(url, { dns, allowCidrs: [] });
      expect(result).toMatchObject({ ok: true });
      if (result.ok) expect(result.url.href).toBe(new URL(url).href);
    }
  });

  it('accepts a loopback name only when the allow list covers it, and exempts nothing else', async () => {
    const allowCidrs = ['127.0.0.0/8', '::1/128'];
    expect(await checkWebhookUrl('https://loop.safety.test/', { dns, allowCidrs })).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('https://loop6.safety.test/', { dns, allowCidrs })).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('https://ten.safety.test/', { dns, allowCidrs })).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('https://loop.safety.test/', { dns, allowCidrs: ['127.0.0.1/32'] })).toMatchObject({
      ok: true,
    });
    expect(
      await checkWebhookUrl('https://loop-other.safety.test/', { dns, allowCidrs: ['127.0.0.1/32'] }),
    ).toMatchObject({ ok: false });
  });

  describe('inside HERALD_WEBHOOK_ALLOW_CIDRS: http, localhost and IP literals', () => {
    const allowCidrs = ['127.0.0.0/8'];
    const accepted = [
      'http://127.0.0.1:8080/hook',
      'https://127.0.0.1/',
      'http://127.45.6.7/',
      'http://localhost:8080/hook',
      'http://LOCALHOST./',
      'http://api.localhost/',
      'http://loop.safety.test/',
      'http://loop-other.safety.test/',
    ];
    it.each(accepted)('accepts %s when the ranges cover its every address', async (url) => {
      expect(await checkWebhookUrl(url, { dns, allowCidrs })).toMatchObject({ ok: true });
    });

    const refused: [url: string, allowCidrs: string[], reason: RegExp][] = [
      [
        'http://127.0.0.1:8080/hook',
        [],
        /^url must use https \(http is allowed when HERALD_WEBHOOK_ALLOW_CIDRS covers/,
      ],
      ['http://localhost:8080/hook', [], /^url must use https .*HERALD_WEBHOOK_ALLOW_CIDRS/],
      [
        'https://127.0.0.1/',
        [],
        /^url host must be a name, not an IP address \(an address in HERALD_WEBHOOK_ALLOW_CIDRS/,
      ],
      ['https://localhost/', [], /^url host must not be localhost \(allowed when HERALD_WEBHOOK_ALLOW_CIDRS covers/],
      ['http://127.0.0.1/', ['10.0.0.0/8'], IP_LITERAL],
      ['http://localhost/', ['10.0.0.0/8'], LOCALHOST],
      ['http://[::1]/', allowCidrs, IP_LITERAL],
      ['http://10.0.0.1/', allowCidrs, IP_LITERAL],
      ['http://[::ffff:127.0.0.1]/', allowCidrs, IP_LITERAL],
      // A public host keeps the contract's rules whatever the ranges: https, a name.
      ['http://public.safety.test/', allowCidrs, /^url must use https/],
      ['http://public.safety.test/', ['0.0.0.0/1'], /^url must use https/],
      ['https://93.184.216.34/', allowCidrs, IP_LITERAL],
      // Every address must be inside: one outside keeps https (and then the public rule) required.
      ['http://mixed-a.safety.test/', ['10.0.0.0/8'], /^url must use https/],
      ['https://mixed-aaaa.safety.test/', ['10.0.0.0/8'], NON_PUBLIC],
      ['http://ten.safety.test/', allowCidrs, /^url must use https/],
    ];
    it.each(refused)('refuses %s with %j', async (url, ranges, reason) => {
      const result = await checkWebhookUrl(url, { dns, allowCidrs: ranges });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(reason);
    });

    it('resolves localhost to the loopback addresses the ranges cover, without DNS', async () => {
      expect(await resolveCheckedAddresses('localhost', { dns, allowCidrs })).toEqual(['127.0.0.1']);
      expect(await resolveCheckedAddresses('localhost', { dns, allowCidrs: ['::1/128'] })).toEqual(['::1']);
      expect(await resolveCheckedAddresses('localhost', { dns, allowCidrs: [...allowCidrs, '::1/128'] })).toEqual([
        '127.0.0.1',
        '::1',
      ]);
      expect(await resolveCheckedAddresses('[::1]', { dns, allowCidrs: ['::1/128'] }, 'http:')).toEqual(['::1']);
    });

    it('checks the scheme at every resolution: http to a name that left the ranges is refused', async () => {
      a('moving.safety.test', '127.0.0.9');
      expect(await resolveCheckedAddresses('moving.safety.test', { dns, allowCidrs }, 'http:')).toEqual(['127.0.0.9']);
      a('moving.safety.test', PUBLIC_V4);
      await expect(resolveCheckedAddresses('moving.safety.test', { dns, allowCidrs }, 'http:')).rejects.toMatchObject({
        kind: 'NOT_HTTPS',
      });
      expect(await resolveCheckedAddresses('moving.safety.test', { dns, allowCidrs }, 'https:')).toEqual([PUBLIC_V4]);
    });

    it('a single-label name is looked up only with ranges, and accepted only inside them', async () => {
      a('intranet', '127.0.0.5');
      expect(await checkWebhookUrl('http://intranet:8080/', { dns, allowCidrs })).toMatchObject({ ok: true });
      expect(await checkWebhookUrl('https://intranet/', { dns, allowCidrs: [] })).toMatchObject({
        ok: false,
        reason: 'url host must be a fully qualified domain name',
      });
      a('outranet', PUBLIC_V4);
      expect(await checkWebhookUrl('https://outranet/', { dns, allowCidrs })).toMatchObject({
        ok: false,
        reason: 'url host must be a fully qualified domain name',
      });
    });
  });
});

describe('resolveCheckedAddresses', () => {
  it('returns every address, IPv4 first', async () => {
    expect(await resolveCheckedAddresses('public.safety.test', { dns, allowCidrs: [] })).toEqual([
      PUBLIC_V4,
      PUBLIC_V6,
    ]);
  });

  it('throws UnsafeWebhookHostError with its kind, the address and a message for the log', async () => {
    const error = await resolveCheckedAddresses('mixed-aaaa.safety.test', { dns, allowCidrs: [] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnsafeWebhookHostError);
    expect(error).toMatchObject({
      kind: 'NOT_PUBLIC',
      address: 'fd12:3456::1',
      message: 'webhook host mixed-aaaa.safety.test resolves to a non-public address fd12:3456::1 (unique-local)',
    });
    await expect(resolveCheckedAddresses('nxdomain.safety.test', { dns, allowCidrs: [] })).rejects.toMatchObject({
      kind: 'NOT_FOUND',
    });
    await expect(resolveCheckedAddresses('servfail.safety.test', { dns, allowCidrs: [] })).rejects.toMatchObject({
      kind: 'TEMPORARY',
    });
    await expect(resolveCheckedAddresses('0x7f.1', { dns, allowCidrs: [] })).rejects.toMatchObject({
      kind: 'INVALID_HOST',
    });
  });
});

describe('isPublicAddress', () => {
  it.each([
    '10.0.0.1',
    '127.0.0.1',
    '169.254.1.1',
    '100.127.255.255',
    '0.1.2.3',
    '192.0.0.1',
    '192.0.2.200',
    '198.19.255.1',
    '198.51.100.1',
    '203.0.113.9',
    '240.1.1.1',
    '255.255.255.255',
    '224.0.0.251',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd00::1',
    'ff02::1',
    '::ffff:8.8.8.8',
    '::ffff:127.0.0.1',
    '64:ff9b::808:808',
    '64:ff9b:1::1',
    '2002:808:808::1',
    '2001::1',
    '2001:db8::1',
    '100::1',
    'fec0::1',
    '::808:808',
    '::8.8.8.8',
    '2606:4700::8.8.8.8',
    '3fff::1',
    'not-an-ip',
    'fe80::1%eth0',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip, [])).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', PUBLIC_V4, '2606:4700:4700::1111', PUBLIC_V6])('accepts %s', (ip) => {
    expect(isPublicAddress(ip, [])).toBe(true);
  });

  it('exempts the allowed ranges, given as strings or parsed', () => {
    expect(isPublicAddress('10.9.8.7', ['10.9.0.0/16'])).toBe(true);
    expect(isPublicAddress('10.10.8.7', parseAllowCidrs(['10.9.0.0/16']))).toBe(false);
    expect(isPublicAddress('::1', parseAllowCidrs(['::1/128']))).toBe(true);
    expect(() => parseAllowCidrs(['10.0.0.0'])).toThrow(/HERALD_WEBHOOK_ALLOW_CIDRS/);
  });
});

// The webhook URL check against the loopback DNS server: every hostile form of URL is refused with
// a reason naming the problem, public names are accepted, and HERALD_WEBHOOK_ALLOW_CIDRS exempts
// exactly its ranges. For hosts wholly inside them (http, localhost and IP literals accepted), see
// url-safety-allow-cidrs.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../src/adapters/dns.ts';
import {
  checkWebhookUrl,
  isPublicAddress,
  parseAllowCidrs,
  resolveCheckedAddresses,
  UnsafeWebhookHostError,
} from '../../src/webhooks/url-safety.ts';
import {
  IP_LITERAL,
  LOCALHOST,
  NO_RESOLVE,
  NON_PUBLIC,
  PRIVATE_A,
  PRIVATE_AAAA,
  PUBLIC_V4,
  PUBLIC_V6,
  safetyDns,
  SCHEME,
  SINGLE_LABEL,
  USERINFO,
} from './url-safety-support.ts';

const bed = safetyDns();
let dns: DnsResolver;
beforeAll(() => {
  dns = bed.dns;
});

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

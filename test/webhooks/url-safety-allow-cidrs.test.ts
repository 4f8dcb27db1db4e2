// The webhook URL check for hosts inside HERALD_WEBHOOK_ALLOW_CIDRS, against the loopback DNS server:
// http, localhost and IP literals accepted only when the ranges cover every address of the host,
// the scheme checked again at every resolution, and single-label names looked up only with ranges.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../src/adapters/dns.ts';
import { checkWebhookUrl, resolveCheckedAddresses } from '../../src/webhooks/url-safety.ts';
import { IP_LITERAL, LOCALHOST, NON_PUBLIC, PUBLIC_V4, safetyDns } from './url-safety-support.ts';

const bed = safetyDns();
let dns: DnsResolver;
beforeAll(() => {
  dns = bed.dns;
});

describe('checkWebhookUrl', () => {
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
      bed.a('moving.safety.test', '127.0.0.9');
      expect(await resolveCheckedAddresses('moving.safety.test', { dns, allowCidrs }, 'http:')).toEqual(['127.0.0.9']);
      bed.a('moving.safety.test', PUBLIC_V4);
      await expect(resolveCheckedAddresses('moving.safety.test', { dns, allowCidrs }, 'http:')).rejects.toMatchObject({
        kind: 'NOT_HTTPS',
      });
      expect(await resolveCheckedAddresses('moving.safety.test', { dns, allowCidrs }, 'https:')).toEqual([PUBLIC_V4]);
    });

    it('a single-label name is looked up only with ranges, and accepted only inside them', async () => {
      bed.a('intranet', '127.0.0.5');
      expect(await checkWebhookUrl('http://intranet:8080/', { dns, allowCidrs })).toMatchObject({ ok: true });
      expect(await checkWebhookUrl('https://intranet/', { dns, allowCidrs: [] })).toMatchObject({
        ok: false,
        reason: 'url host must be a fully qualified domain name',
      });
      bed.a('outranet', PUBLIC_V4);
      expect(await checkWebhookUrl('https://outranet/', { dns, allowCidrs })).toMatchObject({
        ok: false,
        reason: 'url host must be a fully qualified domain name',
      });
    });
  });
});

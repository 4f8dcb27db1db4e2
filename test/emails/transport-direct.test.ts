// The direct mail transport: MX lookups through the loopback DNS server, then delivery to a real SMTP
// server on loopback (the sink): MX priority, the A fallback, per-recipient outcomes by domain,
// unreachable hosts, DNS failures, STARTTLS or plaintext, and DKIM verified end to end (every message
// the sink receives passes DKIM, transport-support.ts).
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../src/adapters/dns.ts';
import { createMailTransport, type MailTransport } from '../../src/adapters/mail-transport/index.ts';
import { signMessage } from '../../src/emails/dkim-sign.ts';
import { buildMessage } from '../../src/emails/mime.ts';
import { verifyDkimWithDns } from '../support/dkim-verify.ts';
import type { TestDnsServer } from '../support/dns-server.ts';
import { makeDkimKey, SmtpSink } from '../support/smtp-sink.ts';
import { expectAllPassDkim, from, message, noRecord, SIGN_TIME, transportTestBed } from './transport-support.ts';

const bed = transportTestBed();
let sink: SmtpSink;
let dnsServer: TestDnsServer;
let dns: DnsResolver;
beforeAll(() => {
  ({ sink, dnsServer, dns } = bed);
});

describe('direct transport', () => {
  let direct: MailTransport;
  beforeAll(() => {
    direct = createMailTransport(
      { kind: 'direct' },
      { dns, mxPort: sink.port, mailDomain: 'herald.test', record: noRecord, timeoutMs: 2_000 },
    );
  });
  afterAll(() => direct.close());

  it('looks up the MX through HERALD_DNS_SERVERS and delivers there over STARTTLS', async () => {
    dnsServer.setMx('mx.direct.test', { exchange: 'in1.mx.direct.test', priority: 10 });
    dnsServer.set('in1.mx.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const result = await direct.send({ from, to: ['ann@mx.direct.test'] }, await message(['ann@mx.direct.test']));
    expect(result.recipients).toMatchObject([
      { recipient: 'ann@mx.direct.test', status: 'accepted', responseCode: 250, host: 'in1.mx.direct.test' },
    ]);
    const [received] = await sink.waitForMessages(1);
    expect(received!.envelope).toEqual({ from, to: ['ann@mx.direct.test'] });
    expect(received!.secure).toBe(true);
    expect(dnsServer.queries).toContain('MX mx.direct.test over udp');
  });

  it('tries MX hosts by priority and moves past one that cannot be reached', async () => {
    // 127.0.0.2 is loopback too, but the sink listens on 127.0.0.1 only: connection refused.
    dnsServer.setMx(
      'prio.direct.test',
      { exchange: 'backup.prio.direct.test', priority: 20 },
      { exchange: 'dead.prio.direct.test', priority: 5 },
    );
    dnsServer.set('dead.prio.direct.test', 'A', [{ type: 'A', address: '127.0.0.2' }]);
    dnsServer.set('backup.prio.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const result = await direct.send({ from, to: ['bo@prio.direct.test'] }, await message(['bo@prio.direct.test']));
    expect(result.recipients).toMatchObject([{ status: 'accepted', host: 'backup.prio.direct.test' }]);
  });

  it('falls back to the domain address when there is no MX (RFC 5321 5.1)', async () => {
    dnsServer.set('nomx.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const result = await direct.send({ from, to: ['cy@nomx.direct.test'] }, await message(['cy@nomx.direct.test']));
    expect(result.recipients).toMatchObject([{ status: 'accepted', host: 'nomx.direct.test' }]);
    expect(dnsServer.queries).toContain('MX nomx.direct.test over udp');
    expect(dnsServer.queries).toContain('A nomx.direct.test over udp');
  });

  it('groups recipients by domain and keeps per-recipient outcomes from RCPT replies', async () => {
    dnsServer.setMx('one.direct.test', { exchange: 'mx.one.direct.test', priority: 10 });
    dnsServer.set('mx.one.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    dnsServer.set('two.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    sink.respond('nobody@one.direct.test', { stage: 'rcpt', code: 550, message: 'No such user' });
    sink.respond('full@two.direct.test', { stage: 'rcpt', code: 452, message: 'Mailbox full' });
    const to = ['a@one.direct.test', 'a@two.direct.test', 'nobody@one.direct.test', 'full@two.direct.test'];
    const result = await direct.send({ from, to }, await message(to));
    expect(result.recipients.map((r) => [r.recipient, r.status])).toEqual([
      ['a@one.direct.test', 'accepted'],
      ['a@two.direct.test', 'accepted'],
      ['nobody@one.direct.test', 'permanent'],
      ['full@two.direct.test', 'temporary'],
    ]);
    const received = await sink.waitForMessages(2);
    expect(received.map((m) => m.envelope.to).sort()).toEqual([['a@one.direct.test'], ['a@two.direct.test']]);
  });

  it('reports a 5xx at DATA as permanent', async () => {
    dnsServer.set('spam.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    sink.respond('*', { stage: 'data', code: 554, message: 'Rejected' });
    const result = await direct.send({ from, to: ['x@spam.direct.test'] }, await message(['x@spam.direct.test']));
    expect(result.recipients).toMatchObject([{ status: 'permanent', responseCode: 554 }]);
  });

  it('reports unreachable hosts as temporary', async () => {
    dnsServer.setMx('down.direct.test', { exchange: 'mx.down.direct.test', priority: 10 });
    dnsServer.set('mx.down.direct.test', 'A', [{ type: 'A', address: '127.0.0.2' }]);
    const result = await direct.send({ from, to: ['a@down.direct.test'] }, await message(['a@down.direct.test']));
    expect(result.recipients).toMatchObject([{ status: 'temporary', host: 'mx.down.direct.test' }]);
  });

  it('reports a DNS failure as temporary and a domain with no mail host as permanent', async () => {
    dnsServer.behave('broken.direct.test', 'servfail');
    dnsServer.setMx('nullmx.direct.test', { exchange: '.', priority: 0 });
    const to = ['a@broken.direct.test', 'a@nowhere.direct.test', 'a@nullmx.direct.test'];
    const result = await direct.send({ from, to }, await message(to));
    expect(result.recipients.map((r) => [r.recipient, r.status])).toEqual([
      ['a@broken.direct.test', 'temporary'],
      ['a@nowhere.direct.test', 'permanent'],
      ['a@nullmx.direct.test', 'permanent'],
    ]);
  });

  it('asks for no AAAA record with HERALD_DIRECT_IPV6=off, and connects from HERALD_DIRECT_BIND_ADDRESS', async () => {
    const v4only = createMailTransport(
      { kind: 'direct' },
      {
        dns,
        mxPort: sink.port,
        mailDomain: 'herald.test',
        record: noRecord,
        timeoutMs: 2_000,
        direct: { ipv6: false, bindAddress: '127.0.0.1' },
      },
    );
    try {
      dnsServer.setMx('v4.direct.test', { exchange: 'mx.v4.direct.test', priority: 10 });
      dnsServer.set('mx.v4.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
      const to = ['four@v4.direct.test'];
      expect((await v4only.send({ from, to }, await message(to))).recipients).toMatchObject([{ status: 'accepted' }]);
      expect(dnsServer.queries).toContain('A mx.v4.direct.test over udp');
      expect(dnsServer.queries).not.toContain('AAAA mx.v4.direct.test over udp');
    } finally {
      await v4only.close();
    }
  });

  it('delivers in plaintext to a host that offers no STARTTLS', async () => {
    const plain = await SmtpSink.start({ starttls: false });
    try {
      const transport = createMailTransport(
        { kind: 'direct' },
        { dns, mxPort: plain.port, mailDomain: 'herald.test', record: noRecord, timeoutMs: 2_000 },
      );
      dnsServer.set('plain.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
      const result = await transport.send(
        { from, to: ['p@plain.direct.test'] },
        await message(['p@plain.direct.test']),
      );
      expect(result.recipients).toMatchObject([{ status: 'accepted' }]);
      const [received] = await plain.waitForMessages(1);
      expect(received!.secure).toBe(false);
      await expectAllPassDkim(plain.messages, dnsServer.address);
      await transport.close();
    } finally {
      await plain.close();
    }
  });

  it('delivers a DKIM-signed message that the receiving side verifies', async () => {
    // Its own key and selector, published beside the suite's, as a second key of the domain would be.
    const own = makeDkimKey('acme.test', 'h2026b');
    dnsServer.setTxt(`${own.selector}._domainkey.${own.domain}`, own.txt);
    dnsServer.set('dkim.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const raw = await buildMessage({
      from: 'Acme <hello@acme.test>',
      to: ['d@dkim.direct.test'],
      subject: 'Signed',
      html: '<p>Signed</p>',
      text: 'Signed',
      messageId: '<m2@herald.test>',
      date: new Date('2026-03-01T10:00:00Z'),
      listUnsubscribe: 'https://herald.test/u/1',
      attachments: [{ filename: 'a.bin', content: Buffer.from([0, 1, 2, 255]) }],
    });
    const signed = await signMessage(
      raw,
      { domain: own.domain, selector: own.selector, privateKeyPem: own.privateKeyPem },
      SIGN_TIME,
    );
    const result = await direct.send({ from, to: ['d@dkim.direct.test'] }, signed);
    expect(result.recipients).toMatchObject([{ status: 'accepted' }]);
    const [received] = await sink.waitForMessages(1);
    const dkim = await verifyDkimWithDns(received!.raw, dnsServer.address);
    expect(dkim.statuses).toEqual(['pass']);
    expect(dkim.results[0]).toMatchObject({ signingDomain: 'acme.test', selector: 'h2026b' });
    expect(dnsServer.queries.some((q) => q.startsWith('TXT h2026b._domainkey.acme.test'))).toBe(true);
    expect((await simpleParser(received!.raw)).subject).toBe('Signed');
  });
});

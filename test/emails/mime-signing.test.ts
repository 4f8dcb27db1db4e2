// The raw message's headers as sent and signed: folding (RFC 5322), its DKIM signature checked the way
// a receiver checks it, and the Message-ID a retry carries.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendingDomain } from '../../src/domains/index.ts';
import { buildSignedMessage, messageIdOf } from '../../src/emails/delivery-message.ts';
import { signMessage } from '../../src/emails/dkim-sign.ts';
import { buildMessage, foldHeaderValue, MimeHeaderError } from '../../src/emails/mime.ts';
import type { EmailRow } from '../../src/emails/queries.ts';
import { verifyDkimWithDns } from '../support/dkim-verify.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { makeDkimKey } from '../support/smtp-sink.ts';
import { headerBlock, input } from './mime-support.ts';

/** The header lines of the message and of each MIME part (a part's headers follow its boundary line). */
function allHeaderLines(raw: Buffer): string[] {
  const lines: string[] = [];
  let inHeaders = true;
  for (const line of raw.toString('latin1').split('\r\n')) {
    if (line === '') inHeaders = false;
    else if (/^--\S+$/.test(line) && !line.endsWith('--')) inHeaders = true;
    else if (inHeaders) lines.push(line);
  }
  return lines;
}

describe('buildMessage: header folding (RFC 5322 2.1.1, 2.2.3)', () => {
  const longUrl = `https://herald.example.test/unsubscribe/${'t'.repeat(110)}`;
  const mailto = 'mailto:unsubscribe@mail.herald.test?subject=em_01abc';

  it('folds List-Unsubscribe after the comma between its URIs; a URI longer than a line stays whole', async () => {
    const raw = await buildMessage(input({ listUnsubscribe: longUrl, listUnsubscribeMailto: mailto }));
    const lines = headerBlock(raw).split('\r\n');
    const at = lines.findIndex((line) => line.startsWith('List-Unsubscribe:'));
    expect(lines.slice(at, at + 3)).toEqual([
      `List-Unsubscribe: <${longUrl}>,`,
      ` <${mailto}>`,
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    ]);
    const parsed = await simpleParser(raw);
    expect(parsed.headers.get('list')).toMatchObject({
      unsubscribe: { url: longUrl, mail: 'unsubscribe@mail.herald.test?subject=em_01abc' },
    });
  });

  it('keeps a short List-Unsubscribe on one line, and refuses a mailto: URI that would break out of <>', async () => {
    const head = headerBlock(
      await buildMessage(input({ listUnsubscribe: 'https://h.test/u/1', listUnsubscribeMailto: 'mailto:u@h.test' })),
    );
    expect(head).toMatch(/^List-Unsubscribe: <https:\/\/h\.test\/u\/1>, <mailto:u@h\.test>$/m);
    for (const bad of ['mailto:u@h.test> <https://evil.test', 'mailto:a b@h.test', 'https://h.test/u', 'mailto:']) {
      await expect(
        buildMessage(input({ listUnsubscribe: 'https://h.test/u/1', listUnsubscribeMailto: bad })),
      ).rejects.toBeInstanceOf(MimeHeaderError);
    }
  });

  it('folds at whitespace only, never leaving the first line empty', () => {
    expect(foldHeaderValue('X', 'short value')).toBe('short value');
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const folded = foldHeaderValue('X-Words', words);
    const lines = `X-Words: ${folded}`.split('\r\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(78);
    expect(lines.slice(1).every((line) => line.startsWith(' '))).toBe(true);
    expect(folded.replace(/\r\n/g, '')).toBe(words);
    expect(foldHeaderValue('X', 'y'.repeat(100))).toBe('y'.repeat(100));
  });

  it('writes every header Herald sets within 78 characters a line', async () => {
    const to = Array.from({ length: 12 }, (_, i) => `Recipient Number ${i} <recipient.number.${i}@example.test>`);
    const raw = await buildMessage(
      input({
        from: '"Acme Corporation International, Customer Success" <notifications@mail.acme-corporation.test>',
        to,
        cc: to.slice(0, 5).map((address) => address.replace('example', 'cc-example')),
        replyTo: ['Support Team With A Long Name <support.team@acme-corporation.test>'],
        subject: `Your receipt for the order you placed last Tuesday, with ${'many words '.repeat(8)}— №42`,
        headers: { 'X-Campaign': 'spring sale '.repeat(10).trim() },
        inReplyTo: '<em_01parentparentparentparent@mail.herald.test>',
        listUnsubscribe: `https://herald.example.test/unsubscribe/${'t'.repeat(10)}`,
        listUnsubscribeMailto: mailto,
        attachments: [
          {
            filename: 'the quarterly report of the acme corporation, second quarter 2026.csv',
            content: Buffer.from('a'),
          },
        ],
      }),
    );
    const long = allHeaderLines(raw).filter((line) => line.length > 78);
    expect(long).toEqual([]);
    const parsed = await simpleParser(raw);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value.map((a) => a.address) : []).toEqual(
      to.map((address) => /<(.*)>/.exec(address)![1]),
    );
    expect(parsed.subject).toBe(
      `Your receipt for the order you placed last Tuesday, with ${'many words '.repeat(8)}— №42`,
    );
    expect(parsed.from?.value).toEqual([
      { address: 'notifications@mail.acme-corporation.test', name: 'Acme Corporation International, Customer Success' },
    ]);
    expect(parsed.attachments[0]?.filename).toBe(
      'the quarterly report of the acme corporation, second quarter 2026.csv',
    );
  });

  it('writes an unfoldable token whole, within 998 octets', async () => {
    const raw = await buildMessage(
      input({ subject: `See https://acme.test/${'p'.repeat(150)}`, headers: { 'X-Token': 'z'.repeat(200) } }),
    );
    const lines = allHeaderLines(raw);
    expect(lines.every((line) => line.length <= 998)).toBe(true);
    expect((await simpleParser(raw)).subject).toBe(`See https://acme.test/${'p'.repeat(150)}`);
  });
});

describe('signMessage (DKIM)', () => {
  const key = makeDkimKey('acme.test', 'h2026');
  // The receiver looks the key up in DNS: a loopback server publishing the selector's record.
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await TestDnsServer.start();
    dns.setTxt(`${key.selector}._domainkey.${key.domain}`, key.txt);
  });
  afterAll(() => dns?.close());
  const verifyDkim = async (raw: Buffer) => (await verifyDkimWithDns(raw, dns.address)).statuses;

  it('signs relaxed/relaxed rsa-sha256 over the present headers, and a receiver verifies it', async () => {
    const raw = await buildMessage(
      input({
        listUnsubscribe: 'https://herald.test/u/1',
        attachments: [{ filename: 'a.txt', content: Buffer.from('x') }],
      }),
    );
    const signed = await signMessage(raw, {
      domain: key.domain,
      selector: key.selector,
      privateKeyPem: key.privateKeyPem,
    });
    const head = headerBlock(signed).replace(/\r\n[ \t]+/g, ' ');
    const signature = /^DKIM-Signature: (.*)$/m.exec(head)?.[1] ?? '';
    expect(signature).toMatch(/a=rsa-sha256/);
    expect(signature).toMatch(/c=relaxed\/relaxed/);
    expect(signature).toMatch(/d=acme\.test/);
    expect(signature).toMatch(/s=h2026/);
    const signedHeaders = /h=([^;]+)/.exec(signature)![1]!.replace(/\s/g, '').toLowerCase().split(':');
    for (const name of [
      'from',
      'to',
      'cc',
      'subject',
      'date',
      'message-id',
      'reply-to',
      'mime-version',
      'content-type',
      'list-unsubscribe',
      'list-unsubscribe-post',
    ]) {
      expect(signedHeaders).toContain(name);
    }
    expect(signedHeaders).not.toContain('in-reply-to');
    expect(signed.subarray(signed.length - raw.length).equals(raw)).toBe(true);
    expect(await verifyDkim(signed)).toEqual(['pass']);
  });

  it('fails verification when the body is changed after signing', async () => {
    const signed = await signMessage(await buildMessage(input({ html: null })), {
      domain: key.domain,
      selector: key.selector,
      privateKeyPem: key.privateKeyPem,
    });
    const tampered = Buffer.from(signed.toString('utf8').replace('Thanks for your order.', 'Thanks for your money.'));
    expect(tampered.equals(signed)).toBe(false);
    // mailauth reports a body-hash mismatch as 'neutral' ("body hash did not verify"): not a pass.
    const [status] = await verifyDkim(tampered);
    expect(['fail', 'neutral']).toContain(status);
  });

  it('fails verification when a signed header is changed', async () => {
    const signed = await signMessage(await buildMessage(input()), {
      domain: key.domain,
      selector: key.selector,
      privateKeyPem: key.privateKeyPem,
    });
    const tampered = Buffer.from(signed.toString('utf8').replace('support@acme.test', 'attacker@evil.test'));
    expect(await verifyDkim(tampered)).toEqual(['fail']);
  });

  it('signs the folded form, so a receiver verifies List-Unsubscribe, long To and Subject', async () => {
    const raw = await buildMessage(
      input({
        to: Array.from({ length: 10 }, (_, i) => `Person ${i} <person.${i}@example.test>`),
        subject: `A long subject line that nodemailer has to fold ${'again and '.repeat(10)}done`,
        listUnsubscribe: `https://herald.example.test/unsubscribe/${'t'.repeat(110)}`,
        listUnsubscribeMailto: 'mailto:unsubscribe@mail.herald.test?subject=em_01abc',
        attachments: [{ filename: 'notes.txt', content: Buffer.from('one\ntwo\n') }],
      }),
    );
    const signed = await signMessage(raw, {
      domain: key.domain,
      selector: key.selector,
      privateKeyPem: key.privateKeyPem,
    });
    expect(headerBlock(signed)).toMatch(/^List-Unsubscribe: <https:[^\r\n]*>,\r\n <mailto:/m);
    expect(await verifyDkim(signed)).toEqual(['pass']);
    // The signature header, which mailauth folds itself, stays within 78 characters a line too.
    const signatureField = headerBlock(signed).split(/\r\n(?![ \t])/)[0]!;
    expect(signatureField).toMatch(/^DKIM-Signature:/);
    expect(signatureField.split('\r\n').filter((line) => line.length > 78)).toEqual([]);
  });
});

describe('buildSignedMessage', () => {
  const key = makeDkimKey('acme.test', 'r2026');
  const domain: SendingDomain = {
    id: 1,
    teamId: 1,
    name: key.domain,
    returnPath: `send.${key.domain}`,
    dkimSelector: key.selector,
    dkimPrivateKey: key.privateKeyPem,
    clickTracking: false,
    openTracking: false,
  };
  const email = {
    id: 'em_01retryretryretryretry',
    team_id: 1,
    from: 'Acme <hello@acme.test>',
    to: ['ann@example.test'],
    cc: null,
    reply_to: null,
    subject: 'Retried',
    html: '<p>Again</p>',
    text: null,
    headers: null,
  } as unknown as EmailRow;

  it("gives a retried email the same Message-ID, on Herald's mail domain", async () => {
    const build = (now: Date) =>
      buildSignedMessage(email, domain, messageIdOf(email.id, 'mail.herald.test'), now, {
        attachments: [],
        inReplyTo: null,
        listUnsubscribe: null,
      });
    // The retry is built later, as the queue would after a 4xx.
    const first = await simpleParser(await build(new Date('2026-03-01T10:00:00Z')));
    const retry = await simpleParser(await build(new Date('2026-03-01T10:05:00Z')));
    expect(first.messageId).toBe('<em_01retryretryretryretry@mail.herald.test>');
    expect(retry.messageId).toBe(first.messageId);
    expect(retry.date?.getTime()).not.toBe(first.date?.getTime());
  });
});

// The raw message: headers, MIME structure, attachments, list headers, refused custom headers, and
// its DKIM signature checked the way a receiver checks it.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signMessage } from '../../src/emails/dkim-sign.ts';
import { buildMessage, formatMessageId, MimeHeaderError, type MimeInput } from '../../src/emails/mime.ts';
import { verifyDkimWithDns } from '../support/dkim-verify.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { makeDkimKey } from '../support/smtp-sink.ts';

const date = new Date('2026-03-01T10:00:00Z');

function input(overrides: Partial<MimeInput> = {}): MimeInput {
  return {
    from: 'Acme <hello@acme.test>',
    to: ['ann@example.test', 'Bob <bob@example.test>'],
    cc: ['carol@example.test'],
    replyTo: ['support@acme.test'],
    subject: 'Your receipt — №42',
    text: 'Thanks for your order.',
    html: '<p>Thanks for your <b>order</b>.</p>',
    messageId: formatMessageId('em_01abc', 'mail.herald.test'),
    date,
    ...overrides,
  };
}

function headerBlock(raw: Buffer): string {
  const text = raw.toString('utf8');
  return text.slice(0, text.indexOf('\r\n\r\n'));
}

describe('buildMessage', () => {
  it('writes the address, subject, date and identity headers', async () => {
    const raw = await buildMessage(input({ inReplyTo: '<parent@acme.test>' }));
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ address: 'hello@acme.test', name: 'Acme' }]);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value.map((a) => a.address) : []).toEqual([
      'ann@example.test',
      'bob@example.test',
    ]);
    expect(parsed.cc && !Array.isArray(parsed.cc) ? parsed.cc.text : '').toBe('carol@example.test');
    expect(parsed.replyTo?.text).toBe('support@acme.test');
    expect(parsed.subject).toBe('Your receipt — №42');
    expect(parsed.messageId).toBe('<em_01abc@mail.herald.test>');
    expect(parsed.inReplyTo).toBe('<parent@acme.test>');
    expect(parsed.references).toBe('<parent@acme.test>');
    expect(parsed.date?.toISOString()).toBe(date.toISOString());
    expect(headerBlock(raw)).toMatch(/^MIME-Version: 1\.0$/m);
    expect(headerBlock(raw)).not.toMatch(/^X-Mailer:/im);
  });

  it('sends text and html as multipart/alternative', async () => {
    const raw = await buildMessage(input());
    expect(headerBlock(raw)).toMatch(/^Content-Type: multipart\/alternative;/m);
    const parsed = await simpleParser(raw);
    expect(parsed.text?.trim()).toBe('Thanks for your order.');
    expect(parsed.html).toContain('<p>Thanks for your <b>order</b>.</p>');
  });

  it('sends html alone as a single text/html part', async () => {
    const raw = await buildMessage(input({ text: null }));
    expect(headerBlock(raw)).toMatch(/^Content-Type: text\/html; charset=utf-8$/m);
  });

  it('attaches files under multipart/mixed, byte for byte', async () => {
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
    const raw = await buildMessage(
      input({
        attachments: [
          { filename: 'receipt.pdf', content: pdf },
          { filename: 'notes.txt', content: Buffer.from('hi') },
        ],
      }),
    );
    expect(headerBlock(raw)).toMatch(/^Content-Type: multipart\/mixed;/m);
    const parsed = await simpleParser(raw);
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['receipt.pdf', 'application/pdf'],
      ['notes.txt', 'text/plain'],
    ]);
    expect(parsed.attachments[0]!.content.equals(pdf)).toBe(true);
    expect(parsed.text?.trim()).toBe('Thanks for your order.');
  });

  it('never writes a Bcc header', async () => {
    const raw = await buildMessage(input());
    expect(raw.toString()).not.toMatch(/^Bcc:/im);
    await expect(buildMessage(input({ headers: { Bcc: 'hidden@example.test' } }))).rejects.toBeInstanceOf(
      MimeHeaderError,
    );
  });

  it('adds one-click List-Unsubscribe headers (RFC 8058)', async () => {
    const url = 'https://herald.test/unsubscribe/abc?token=x_y-z';
    const head = headerBlock(await buildMessage(input({ listUnsubscribe: url })));
    expect(head).toMatch(/^List-Unsubscribe: <https:\/\/herald\.test\/unsubscribe\/abc\?token=x_y-z>$/m);
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    await expect(buildMessage(input({ listUnsubscribe: 'javascript:alert(1)' }))).rejects.toBeInstanceOf(
      MimeHeaderError,
    );
  });

  it('keeps custom headers and refuses structural or malformed ones', async () => {
    const head = headerBlock(await buildMessage(input({ headers: { 'X-Entity-Ref': 'order-42', 'X-Tag': 'élan' } })));
    expect(head).toMatch(/^X-Entity-Ref: order-42$/m);
    expect(head).toMatch(/^X-Tag: =\?UTF-8\?/m);
    for (const name of [
      'From',
      'to',
      'DKIM-Signature',
      'Message-ID',
      'content-type',
      'List-Unsubscribe',
      'Return-Path',
    ]) {
      await expect(buildMessage(input({ headers: { [name]: 'x' } }))).rejects.toThrow(/cannot be overridden/);
    }
    await expect(buildMessage(input({ headers: { 'X-Bad': 'a\r\nBcc: x@example.test' } }))).rejects.toThrow(
      /line breaks/,
    );
    await expect(buildMessage(input({ headers: { 'Bad Name': 'x' } }))).rejects.toThrow(/not a valid header name/);
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
});

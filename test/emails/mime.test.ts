// buildMessage's raw message: address and identity headers, MIME structure, attachments and how their
// bytes travel, list headers and refused custom headers.
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { buildMessage, MimeHeaderError } from '../../src/emails/mime.ts';
import { date, headerBlock, input } from './mime-support.ts';

/** A line feed without its carriage return, or a carriage return without its line feed. */
const BARE_LINE_END = /(?<!\r)\n|\r(?!\n)/;

const transferEncodings = (parsed: { attachments: { headers: Map<string, unknown> }[] }) =>
  parsed.attachments.map((a) => a.headers.get('content-transfer-encoding'));

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

describe('buildMessage: attachment encodings', () => {
  it('sends ASCII text/* attachments as 7bit with CRLF line ends; binary, non-ASCII and other types as base64, bytes kept', async () => {
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x0a, 0xff, 0x10]);
    const raw = await buildMessage(
      input({
        text: 'line one\nline two\n',
        html: '<p>a</p>\n<p>b</p>\r<p>c</p>\n',
        attachments: [
          { filename: 'orders.csv', content: Buffer.from('id,total\n1,9.50\n2,\t3\n') },
          { filename: 'invite.ics', content: Buffer.from('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n') },
          { filename: 'data', content: Buffer.from('{"a": 1}\n'), contentType: 'application/json' },
          { filename: 'receipt.pdf', content: pdf },
          { filename: 'hello.txt', content: Buffer.from('héllo\n') },
          { filename: 'utf16.txt', content: Buffer.from('hi\n', 'utf16le') },
        ],
      }),
    );
    expect(raw.toString('latin1')).not.toMatch(BARE_LINE_END);
    const parsed = await simpleParser(raw);
    expect(transferEncodings(parsed)).toEqual(['7bit', '7bit', 'base64', 'base64', 'base64', 'base64']);
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['orders.csv', 'text/csv'],
      ['invite.ics', 'text/calendar'],
      ['data', 'application/json'],
      ['receipt.pdf', 'application/pdf'],
      ['hello.txt', 'text/plain'],
      ['utf16.txt', 'text/plain'],
    ]);
    const contents = parsed.attachments.map((a) => a.content.toString('latin1'));
    expect(contents.slice(0, 3)).toEqual([
      'id,total\r\n1,9.50\r\n2,\t3\r\n',
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n',
      '{"a": 1}\n',
    ]);
    expect(parsed.attachments[3]!.content.equals(pdf)).toBe(true);
    expect(parsed.attachments[4]!.content.toString('utf8')).toBe('héllo\n');
    expect(parsed.attachments[5]!.content.equals(Buffer.from('hi\n', 'utf16le'))).toBe(true);
    expect(parsed.text).toBe('line one\nline two\n');
    expect(parsed.html).toContain('<p>c</p>');
  });

  it('sends ASCII text attachments as quoted-printable past 998 octets a line or with control characters', async () => {
    const atLimit = 'a'.repeat(998);
    const pastLimit = 'b'.repeat(999);
    const raw = await buildMessage(
      input({
        attachments: [
          { filename: 'at-limit.txt', content: Buffer.from(`${atLimit}\nend\n`) },
          { filename: 'past-limit.txt', content: Buffer.from(`${pastLimit}\nx = 1 \n`) },
          { filename: 'form-feed.txt', content: Buffer.from('page one\fpage two\n') },
          { filename: 'long.log', content: Buffer.from(`{"k": "${'c'.repeat(2000)}"}`), contentType: 'text/plain' },
        ],
      }),
    );
    expect(raw.toString('latin1')).not.toMatch(BARE_LINE_END);
    // No line passes 998 octets: quoted-printable wraps the long ones at 76 (RFC 2045 6.7).
    expect(
      raw
        .toString('latin1')
        .split('\r\n')
        .filter((line) => line.length > 998),
    ).toEqual([]);
    const parsed = await simpleParser(raw);
    expect(transferEncodings(parsed)).toEqual(['7bit', 'quoted-printable', 'quoted-printable', 'quoted-printable']);
    expect(parsed.attachments.map((a) => a.content.toString('latin1'))).toEqual([
      `${atLimit}\r\nend\r\n`,
      `${pastLimit}\r\nx = 1 \r\n`,
      'page one\fpage two\r\n',
      `{"k": "${'c'.repeat(2000)}"}`,
    ]);
  });
});

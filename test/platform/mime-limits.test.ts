// What the MIME parser can take (src/platform/mime-limits.ts), at its edges: mailsplit reads 1,000 nodes (the
// message and 999 parts) and a header block up to 1 MiB; past that, mailparser truncates the message
// or never settles (a 1,000-part message with text attachments). The check must refuse exactly what
// the parser cannot read, and every parse has a deadline.
import { describe, expect, it } from 'vitest';
import { parseFeedbackReport } from '../../src/feedback/parse-report.ts';
import {
  MAX_HEADER_BLOCK_BYTES,
  messageShapeProblem,
  ParseDeadlineError,
  parseMimeWithin,
  UnreadableMessageError,
} from '../../src/platform/mime-limits.ts';
import { parseInboundMessage } from '../../src/inboxes/parse-message.ts';

function manyParts(parts: number, attachment: 'text' | 'base64' = 'text'): Buffer {
  const boundary = 'b41';
  const lines = ['From: a@sender.test', 'To: b@herald.test', 'Subject: parts', 'MIME-Version: 1.0'];
  lines.push(
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain',
    '',
    'hi',
  );
  for (let i = 1; i < parts; i++) {
    lines.push(`--${boundary}`);
    if (attachment === 'text')
      lines.push('Content-Type: text/plain', `Content-Disposition: attachment; filename="a${i}.txt"`, '', `a ${i}`);
    else lines.push('Content-Type: application/octet-stream', 'Content-Transfer-Encoding: base64', '', 'aGVsbG8=');
  }
  lines.push(`--${boundary}--`, '');
  return Buffer.from(lines.join('\r\n'));
}

const withHeader = (bytes: number) =>
  Buffer.from(`From: a@sender.test\r\nSubject: long\r\nX-Long: ${'a'.repeat(bytes)}\r\n\r\nbody\r\n`);

describe('messageShapeProblem', () => {
  it('takes 998 and 999 parts, refuses 1,000 and 5,000', () => {
    expect(messageShapeProblem(manyParts(998))).toBeNull();
    expect(messageShapeProblem(manyParts(999))).toBeNull();
    expect(messageShapeProblem(manyParts(1000))?.reason).toBe('too_many_parts');
    expect(messageShapeProblem(manyParts(5000))?.reason).toBe('too_many_parts');
  });

  it('counts nested multiparts and a part header block too', () => {
    const nested = (inner: number) => {
      const lines = ['Content-Type: multipart/mixed; boundary="outer"', '', '--outer'];
      lines.push('Content-Type: multipart/alternative; boundary="inner"', '');
      for (let i = 0; i < inner; i++) lines.push('--inner', 'Content-Type: text/plain', '', `p${i}`);
      lines.push('--inner--', '--outer--', '');
      return Buffer.from(lines.join('\r\n'));
    };
    // The message, the outer part, and the inner parts: 1,000 nodes at 998 inner parts.
    expect(messageShapeProblem(nested(998))).toBeNull();
    expect(messageShapeProblem(nested(999))?.reason).toBe('too_many_parts');
    const partHeader = Buffer.from(
      `Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nX-Long: ${'a'.repeat(MAX_HEADER_BLOCK_BYTES)}\r\n\r\nx\r\n--b--\r\n`,
    );
    expect(messageShapeProblem(partHeader)?.reason).toBe('header_too_long');
  });

  it('refuses a 1 MB header line, takes a long one under the limit and a long body line', () => {
    expect(messageShapeProblem(withHeader(1024 * 1024))?.reason).toBe('header_too_long');
    expect(messageShapeProblem(withHeader(MAX_HEADER_BLOCK_BYTES - 100))).toBeNull();
    expect(messageShapeProblem(Buffer.from(`Subject: x\r\n\r\n${'a'.repeat(2 * 1024 * 1024)}\r\n`))).toBeNull();
  });
});

describe('parsing past the limits', () => {
  it('is an UnreadableMessageError for an inbox at once, where mailparser would never settle', async () => {
    for (const raw of [manyParts(1000), manyParts(1000, 'base64'), manyParts(5000), withHeader(1024 * 1024)])
      await expect(parseInboundMessage(raw)).rejects.toBeInstanceOf(UnreadableMessageError);
    expect((await parseInboundMessage(manyParts(999))).attachments).toHaveLength(998);
  });

  it('is an unrecognised report for the feedback path, at once', async () => {
    expect((await parseFeedbackReport(manyParts(1000))).kind).toBe('unrecognised');
    expect((await parseFeedbackReport(withHeader(1024 * 1024))).kind).toBe('unrecognised');
  });

  it('has a deadline: a parse that does not settle is a ParseDeadlineError', async () => {
    const hung = parseMimeWithin(Buffer.from('Subject: x\r\n\r\nbody\r\n'), () => new Promise<never>(() => {}), 50);
    await expect(hung).rejects.toBeInstanceOf(ParseDeadlineError);
  });
});

// Shared by test/emails/mime.test.ts and mime-signing.test.ts: the input of a typical message and
// the header block of a raw one.
//
// The raw message: headers, MIME structure, attachments and how their bytes travel, list headers,
// header folding, refused custom headers, its DKIM signature checked the way a receiver checks it, and
// the Message-ID a retry carries.
import { formatMessageId, type MimeInput } from '../../src/emails/mime.ts';

export const date = new Date('2026-03-01T10:00:00Z');

export function input(overrides: Partial<MimeInput> = {}): MimeInput {
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

export function headerBlock(raw: Buffer): string {
  const text = raw.toString('utf8');
  return text.slice(0, text.indexOf('\r\n\r\n'));
}

// How `herald admin outbox` prints what the admin API returns: the list as a summary (who, what,
// when: no raw messages), one message as a reader would see it (headers and text), or as raw .eml.
import { tableOf } from './cli-table.ts';

interface OutboxJson {
  id: string;
  teamId: number | null;
  emailId: string | null;
  envelope: { from: string; to: string[] };
  subject: string | null;
  createdAt: string;
  raw: string;
}

/** The list without the raw messages: JSON, or a table for people on a terminal. */
export function outboxSummary(body: unknown, json = true): string {
  const rows = (body as OutboxJson[]).map((m) => ({
    id: m.id,
    createdAt: m.createdAt,
    teamId: m.teamId,
    emailId: m.emailId,
    to: m.envelope.to,
    subject: m.subject,
  }));
  return json ? `${JSON.stringify(rows, null, 2)}\n` : tableOf(rows.map((row) => ({ ...row, to: row.to.join(', ') })));
}

/** One message as text: its main headers, then the text part (made from the HTML when it has none). */
export async function outboxMessageText(body: unknown): Promise<string> {
  const message = body as OutboxJson;
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(Buffer.from(message.raw));
  const header = (name: string, value: string | undefined) => (value ? [`${name}: ${value}`] : []);
  const addresses = (value: typeof parsed.to) =>
    value === undefined ? undefined : (Array.isArray(value) ? value : [value]).map((a) => a.text).join(', ');
  const lines = [
    `Outbox message ${message.id} (stored ${message.createdAt}${message.emailId ? `, email ${message.emailId}` : ''}${message.teamId !== null ? `, team ${message.teamId}` : ''})`,
    `Envelope: from ${message.envelope.from} to ${message.envelope.to.join(', ')}`,
    '',
    ...header('From', parsed.from?.text),
    ...header('To', addresses(parsed.to)),
    ...header('Cc', addresses(parsed.cc)),
    ...header('Reply-To', parsed.replyTo?.text),
    ...header('Subject', parsed.subject),
    ...header('Date', parsed.date?.toISOString()),
    ...header('Message-ID', parsed.messageId),
    ...header('DKIM', parsed.headers.has('dkim-signature') ? 'signed' : 'not signed'),
    '',
    (parsed.text ?? '(no text part)').trimEnd(),
  ];
  for (const attachment of parsed.attachments)
    lines.push(
      `[attachment: ${attachment.filename ?? 'unnamed'}, ${attachment.contentType}, ${attachment.size} bytes]`,
    );
  return `${lines.join('\n')}\n`;
}

/** The raw message, as it would have been sent. */
export function outboxMessageEml(body: unknown): string {
  return (body as OutboxJson).raw;
}

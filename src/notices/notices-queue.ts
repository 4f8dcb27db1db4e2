// The team-notices queue: each notice row is mailed once through the mail transport, from
// notices@HERALD_MAIL_DOMAIN (an instance address, not a team's domain: a team may have no verified
// domain, and these are Herald's own messages). With the log transport they land in the outbox.
import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { MailTransport } from '../adapters/mail-transport/index.ts';
import { defineQueue, type BatchContext, type FinaliseItem, type Queue } from '../queue/index.ts';
import { markNoticesSent, NOTICE_UNSENT } from './queries.ts';
import { TEAM_NOTICES_QUEUE } from './team-notices.ts';

interface NoticeRow {
  id: bigint;
  team_id: number;
  recipients: string[];
  subject: string;
  text: string;
}

interface TeamNoticesDeps {
  transport: MailTransport;
  mailDomain: string;
  /** DKIM-signs Herald's own mail with the built-in domain's key (emails' signAsHerald, given by the worker). */
  sign: (raw: Buffer, at: Date) => Promise<Buffer>;
}

async function compose(from: string, row: NoticeRow, mailDomain: string): Promise<Buffer> {
  const composer = new MailComposer({
    from: `Herald <${from}>`,
    to: row.recipients,
    subject: row.subject,
    text: row.text,
    messageId: `<notice-${randomUUID()}@${mailDomain}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
  });
  return composer.compile().build();
}

async function markSent(items: FinaliseItem<NoticeRow>[], ctx: BatchContext): Promise<void> {
  const sent = items.map((item) => ({ id: String(item.id), error: item.error }));
  await markNoticesSent(ctx.db, sent, ctx.leaseUntil, ctx.clock.now());
}

export function teamNoticesQueue(deps: TeamNoticesDeps): Queue {
  const from = `notices@${deps.mailDomain}`;
  return defineQueue<NoticeRow>({
    name: TEAM_NOTICES_QUEUE,
    table: 'team_notices',
    idType: 'bigint',
    dueColumn: 'due_at',
    readyWhere: NOTICE_UNSENT,
    batchSize: 20,
    leaseMs: 5 * 60_000,
    maxAttempts: 12,
    backoff: { baseMs: 60_000, maxMs: 60 * 60_000 },
    handleRow: async (row, ctx) => {
      const raw = await deps.sign(await compose(from, row, deps.mailDomain), ctx.clock.now());
      const result = await deps.transport.send({ from, to: row.recipients }, raw);
      const refused = result.recipients.filter((r) => r.status !== 'accepted');
      // A permanent refusal for one admin must not resend to the others: only all-temporary retries.
      if (refused.length === result.recipients.length && refused.some((r) => r.status === 'temporary')) {
        throw new Error(`notice not accepted: ${refused.map((r) => r.response).join('; ')}`);
      }
    },
    onDone: markSent,
    // Given up (a permanent refusal or out of attempts): marked sent with the error, never retried.
    onFailed: markSent,
  });
}

// A stored message as the contract's Inbound message: attachment links signed afresh (24 hours from
// now), and the html's inline `cid:` images pointed at them.
import type { z } from 'zod';
import type { Secrets } from '../platform/crypto.ts';
import { attachmentUrl } from './attachment-links.ts';
import type { AttachmentMeta, InboxMessageRow } from './message-queries.ts';
import { oneLine } from './parse-message.ts';
import { linkInlineImages } from './sanitize-html.ts';
import type { InboxWithLastReceived } from './queries.ts';
import type { Inbox, InboundMessage, SPAM_VERDICTS } from './schemas.ts';

export interface ViewContext {
  secrets: Secrets;
  publicUrl: string;
  now: Date;
}

export function inboundMessageView(
  row: InboxMessageRow,
  attachments: AttachmentMeta[],
  ctx: ViewContext,
): z.infer<typeof InboundMessage> {
  const urlOf = (position: number) =>
    attachmentUrl(ctx.secrets, ctx.publicUrl, { teamId: row.team_id, messageId: row.id, position }, ctx.now);
  const byContentId = new Map(
    attachments.filter((a) => a.content_id !== null).map((a) => [a.content_id!.toLowerCase(), a.position]),
  );
  const html =
    row.html === null
      ? null
      : linkInlineImages(row.html, (cid) => {
          const position = byContentId.get(cid.toLowerCase());
          return position === undefined ? null : urlOf(position);
        });
  return {
    messageId: row.id,
    conversationId: row.conversation_id,
    inbox: { id: row.inbox_id, name: row.inbox_name },
    // Messages stored before CR/LF were folded at intake (parse-message.ts) are folded here too.
    from: oneLine(row.from),
    to: row.to,
    cc: row.cc,
    subject: oneLine(row.subject),
    text: row.text,
    html,
    strippedText: row.stripped_text,
    attachments: attachments.map((a) => ({
      filename: a.filename,
      contentType: a.content_type,
      size: a.size,
      url: urlOf(a.position),
    })),
    contactId: row.contact_id,
    inReplyToEmailId: row.in_reply_to_email_id,
    spamVerdict: row.spam_verdict as (typeof SPAM_VERDICTS)[number],
    receivedAt: row.received_at.toISOString(),
  };
}

/** An inbox as GET /v1/inbound/inboxes shows it (a Herald extension). */
export function inboxView(row: InboxWithLastReceived): z.infer<typeof Inbox> {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    createdAt: row.created_at.toISOString(),
    lastReceivedAt: row.last_received_at?.toISOString() ?? null,
  };
}

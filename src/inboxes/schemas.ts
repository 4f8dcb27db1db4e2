// Request and response schemas of /v1/inbound (contract: Inbound message, Endpoints › Inbound, Limits).
import { z } from 'zod';
import { cursorParam, limitParam } from '../platform/pagination.ts';

export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 25;

export const SPAM_VERDICTS = ['clean', 'suspicious', 'spam'] as const;

export const InboundMessage = z
  .object({
    messageId: z.string().describe("Herald's id of the received message (not the Message-ID header)"),
    conversationId: z
      .string()
      .describe('one per thread: from In-Reply-To/References, else the messageId of its first message'),
    inbox: z.object({ id: z.string(), name: z.string() }),
    from: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    subject: z.string(),
    text: z.string().nullable(),
    html: z
      .string()
      .nullable()
      .describe('sanitized: no scripts, forms, frames or event handlers; remote images moved to data-remote-src'),
    strippedText: z.string().nullable().describe('the new part, without quoted history and signature'),
    attachments: z.array(
      z.object({
        filename: z.string(),
        contentType: z.string(),
        size: z.number().int(),
        url: z.string().describe('signed link, valid 24 hours'),
      }),
    ),
    contactId: z.string().nullable(),
    inReplyToEmailId: z.string().nullable(),
    spamVerdict: z
      .enum(SPAM_VERDICTS)
      .describe('clean, suspicious, or spam (kept and readable by id, left out of the list)'),
    receivedAt: z.string(),
  })
  .meta({ id: 'InboundMessage' });

export const InboundMessageList = z.object({ data: z.array(InboundMessage), nextCursor: z.string().nullable() });

export const ListInboundQuery = z.object({
  limit: limitParam(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT),
  cursor: cursorParam,
  inbox: z.string().min(1).max(320).optional().describe('an inbox id (or its address): only its messages'),
});

// GET /v1/inbound/inboxes and /v1/inbound/inboxes/{id}, Herald extensions: the team's live inboxes.
export const INBOX_LIST_LIMIT_MAX = 100;
export const INBOX_LIST_LIMIT_DEFAULT = 50;

export const Inbox = z
  .object({
    id: z.string(),
    name: z.string(),
    address: z.string().describe('local@domain, lower case; mail to local+anything@domain reaches it too'),
    createdAt: z.string(),
    lastReceivedAt: z
      .string()
      .nullable()
      .describe('when its latest message that is not spam arrived (as the message list counts); null before any'),
  })
  .meta({ id: 'Inbox' });

export const InboxList = z.object({ data: z.array(Inbox), nextCursor: z.string().nullable() });

export const ListInboxesQuery = z.object({
  limit: limitParam(INBOX_LIST_LIMIT_MAX, INBOX_LIST_LIMIT_DEFAULT),
  cursor: cursorParam,
});

export const InboundIdParams = z.object({ id: z.string().min(1).max(64) });

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

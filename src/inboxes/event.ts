// The data of `email.received` (schema: InboundEventData in src/webhooks/event-catalogue.ts): the
// message's id, inbox, addresses, subject, verdict and links; text and strippedText only up to
// RECEIVED_BODY_MAX characters (webhook calls are stored and retried; large bodies are read
// through the link), never html.
import { RECEIVED_BODY_MAX, type EventData } from '../webhooks/index.ts';

interface StoredMessage {
  id: string;
  conversationId: string;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string | null;
  strippedText: string | null;
  contactId: string | null;
  inReplyToEmailId: string | null;
  spamVerdict: string;
  receivedAt: Date;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

const bounded = (value: string | null) => (value !== null && value.length <= RECEIVED_BODY_MAX ? value : null);

export function receivedEventData(
  m: StoredMessage,
  inbox: { id: string; name: string; address: string },
  apiBaseUrl: string,
): EventData<'email.received'> {
  const message = `${apiBaseUrl}/v1/inbound/messages/${m.id}`;
  return {
    messageId: m.id,
    conversationId: m.conversationId,
    inbox,
    from: m.from,
    to: m.to,
    cc: m.cc,
    subject: m.subject,
    text: bounded(m.text),
    strippedText: bounded(m.strippedText),
    attachments: m.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: a.content.length,
    })),
    contactId: m.contactId,
    inReplyToEmailId: m.inReplyToEmailId,
    spamVerdict: m.spamVerdict as EventData<'email.received'>['spamVerdict'],
    receivedAt: m.receivedAt.toISOString(),
    links: { message, raw: `${message}/raw` },
  };
}

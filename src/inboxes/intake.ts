// Received mail for team inboxes, in two steps around the spool's recording transaction
// (src/mx/record-spooled.ts):
//   prepare: outside any transaction, for a batch of spooled messages: which recipients are live
//            inboxes (one lookup for the batch), then for each message for an inbox: parse (once,
//            whatever its inbox count), spam verdict, sanitised html, strippedText.
//   store:   inside the transaction that deletes the spool rows: threading and contact lookups,
//            the originals and attachments into the blob store, one pack for the batch (before the
//            rows that name it), the messages and their attachments, and `email.received` through
//            recordEvents. So a message answered 250 is stored exactly once, with its event, or not
//            at all (retried).
import { setImmediate } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { BlobStore } from '../adapters/blob-store/index.ts';
import type { DnsResolver } from '../adapters/dns.ts';
import type { Database, InboxRow } from '../db/schema.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { contactIdsByEmail } from '../contacts/index.ts';
import { teamEmailIds } from '../emails/index.ts';
import { recordEvents } from '../webhooks/index.ts';
import { domainOf, inboxAddressOf } from './addresses.ts';
import { receivedEventData } from './event.ts';
import { writeMessageBytes } from './message-bytes.ts';
import {
  conversationAnsweringEmail,
  conversationsByHeaderId,
  insertInboxMessages,
  type NewInboxMessage,
} from './message-queries.ts';
import {
  parseInboundMessage,
  ParseDeadlineError,
  UnreadableMessageError,
  type ParsedInboundMessage,
} from './parse-message.ts';
import { liveInboxesByAddress } from './queries.ts';
import { sanitizeInboundHtml } from './sanitize-html.ts';
import { localVerdict, mailauthResolver, type SpamDecision } from './spam-local.ts';
import { rspamdVerdict } from './spam-rspamd.ts';
import { strippedTextOf } from './stripped-text.ts';

export interface InboxIntakeDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** HERALD_MAIL_DOMAIN: the right-hand side of Herald's own Message-IDs. */
  mailDomain: string;
  /** SPF, DKIM and DMARC lookups of the built-in spam checks. */
  dns: DnsResolver;
  /** HERALD_RSPAMD_URL, or null. */
  rspamdUrl: string | null;
  /** `{HERALD_PUBLIC_URL}{HERALD_API_PREFIX}`: the links in `email.received`. */
  apiBaseUrl: string;
  /** Where the originals and attachments are written (message-bytes.ts). */
  blobs: BlobStore;
  logger: Logger;
}

/** A spooled message as the intake needs it. */
export interface IntakeMessage {
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  remoteAddress?: string;
  receivedAt?: Date;
}

/** One message for one inbox, ready to store. */
interface Delivery {
  id: string;
  inbox: InboxRow;
  message: IntakeMessage;
  parsed: ParsedInboundMessage;
  html: string | null;
  strippedText: string | null;
  spam: SpamDecision;
  receivedAt: Date;
}

/**
 * A message the intake could not read: permanent when the parser cannot take it at all (kept as
 * unreadable at once), otherwise (its parse outlived the deadline) retried like any failure.
 */
export interface UnreadableIntake {
  /** Its position in the messages given to prepare. */
  index: number;
  error: string;
  permanent: boolean;
}

export interface PreparedIntake {
  deliveries: Delivery[];
  /** Per message, in input order: its recipients that are no inbox's (bounce return paths...). */
  otherRecipients: string[][];
  /** Left out of the deliveries, so that one poison message never fails the others of its batch. */
  unreadable: UnreadableIntake[];
}

export interface InboxIntake {
  prepare(messages: readonly IntakeMessage[]): Promise<PreparedIntake>;
  store(tx: Transaction<Database>, prepared: PreparedIntake): Promise<void>;
}

/** Messages prepared between two yields to the event loop (parsing is CPU work). */
const PREPARE_BETWEEN_YIELDS = 4;

export function createInboxIntake(deps: InboxIntakeDeps): InboxIntake {
  const logger = deps.logger.child({ part: 'inboxes' });
  const resolver = mailauthResolver(deps.dns);

  async function spamVerdict(message: IntakeMessage, parsed: ParsedInboundMessage, recipients: string[]) {
    const connection = { remoteAddress: message.remoteAddress ?? '127.0.0.1', mailFrom: message.mailFrom };
    if (deps.rspamdUrl !== null) {
      try {
        return await rspamdVerdict(deps.rspamdUrl, message.raw, connection, recipients);
      } catch (error) {
        logger.warn({ err: error }, 'rspamd could not classify a message; the built-in checks decide');
      }
    }
    return localVerdict(message.raw, parsed, connection, resolver);
  }

  return {
    async prepare(messages) {
      const wanted = messages.flatMap((m) => m.rcptTo.map(inboxAddressOf).filter((a): a is string => a !== null));
      const inboxes = new Map((await liveInboxesByAddress(deps.db, wanted)).map((inbox) => [inbox.address, inbox]));
      const deliveries: Delivery[] = [];
      const otherRecipients: string[][] = [];
      const unreadable: UnreadableIntake[] = [];
      let prepared = 0;
      for (const [index, message] of messages.entries()) {
        const mine = new Map<string, InboxRow>();
        const others: string[] = [];
        for (const recipient of message.rcptTo) {
          const inbox = inboxes.get(inboxAddressOf(recipient) ?? '');
          if (inbox === undefined) others.push(recipient);
          else mine.set(inbox.id, inbox); // support@ and support+tag@ in one message: one copy
        }
        otherRecipients.push(others);
        if (mine.size === 0) continue;
        if (prepared++ > 0 && prepared % PREPARE_BETWEEN_YIELDS === 0) await setImmediate();
        let parsed: ParsedInboundMessage;
        try {
          parsed = await parseInboundMessage(message.raw);
        } catch (error) {
          if (!(error instanceof UnreadableMessageError || error instanceof ParseDeadlineError)) throw error;
          unreadable.push({ index, error: error.message, permanent: error instanceof UnreadableMessageError });
          continue;
        }
        const spam = await spamVerdict(
          message,
          parsed,
          [...mine.values()].map((inbox) => inbox.address),
        );
        const html = parsed.html === null ? null : await sanitizeInboundHtml(parsed.html);
        const strippedText = strippedTextOf(parsed.text);
        const receivedAt = message.receivedAt ?? deps.clock.now();
        for (const inbox of mine.values())
          deliveries.push({
            id: newId('inmsg_', receivedAt),
            inbox,
            message,
            parsed,
            html,
            strippedText,
            spam,
            receivedAt,
          });
      }
      return { deliveries, otherRecipients, unreadable };
    },

    async store(tx, prepared) {
      await storeDeliveries(tx, deps, prepared.deliveries);
    },
  };
}

/** Herald's own email ids among the `<id@HERALD_MAIL_DOMAIN>` ids a message answers, in its order. */
function ownEmailIds(answers: string[], mailDomain: string): string[] {
  return answers
    .filter((id) => domainOf(id.slice(1, -1)).toLowerCase() === mailDomain.toLowerCase())
    .map((id) => id.slice(1, id.lastIndexOf('@')).toLowerCase());
}

/** What the batch's threading and contacts need from the database, one statement per kind and team. */
interface TeamFacts {
  conversationsByHeader: Map<string, string>;
  emails: Set<string>;
  contacts: Map<string, string>;
}

async function teamFacts(
  tx: Transaction<Database>,
  teamId: number,
  deliveries: Delivery[],
  mailDomain: string,
): Promise<TeamFacts> {
  const answers = [...new Set(deliveries.flatMap((d) => d.parsed.answers))];
  const senders = [...new Set(deliveries.map((d) => d.parsed.fromAddress).filter((a): a is string => a !== null))];
  return {
    conversationsByHeader: await conversationsByHeaderId(tx, teamId, answers),
    emails: await teamEmailIds(tx, teamId, ownEmailIds(answers, mailDomain)),
    contacts: await contactIdsByEmail(tx, teamId, senders),
  };
}

/**
 * Threading (contract: conversationId, inReplyToEmailId) and contacts for the batch, then its bytes
 * into the blob store (one pack), its messages and attachments in one INSERT each, then their
 * email.received events in one more. Messages of the batch thread onto each other too: each sees the
 * ones before it.
 */
async function storeDeliveries(tx: Transaction<Database>, deps: InboxIntakeDeps, deliveries: Delivery[]) {
  if (deliveries.length === 0) return;
  const facts = new Map<number, TeamFacts>();
  for (const teamId of new Set(deliveries.map((d) => d.inbox.team_id)))
    facts.set(
      teamId,
      await teamFacts(
        tx,
        teamId,
        deliveries.filter((d) => d.inbox.team_id === teamId),
        deps.mailDomain,
      ),
    );
  const rows: NewInboxMessage[] = [];
  for (const d of deliveries) {
    const teamId = d.inbox.team_id;
    const known = facts.get(teamId)!;
    const { parsed } = d;
    const inReplyToEmailId = ownEmailIds(parsed.answers, deps.mailDomain).find((id) => known.emails.has(id)) ?? null;
    // In-Reply-To first, then References newest first: the nearest known message decides.
    let conversationId =
      parsed.answers.map((id) => known.conversationsByHeader.get(id)).find((c) => c !== undefined) ?? null;
    if (conversationId === null && inReplyToEmailId !== null)
      conversationId =
        rows.find((r) => r.teamId === teamId && r.inReplyToEmailId === inReplyToEmailId)?.conversationId ??
        (await conversationAnsweringEmail(tx, teamId, inReplyToEmailId));
    const row: NewInboxMessage = {
      id: d.id,
      teamId,
      inboxId: d.inbox.id,
      conversationId: conversationId ?? d.id,
      headerMessageId: parsed.messageId,
      mailFrom: d.message.mailFrom,
      from: parsed.from,
      to: parsed.to,
      cc: parsed.cc,
      subject: parsed.subject,
      text: parsed.text,
      html: d.html,
      strippedText: d.strippedText,
      contactId: parsed.fromAddress === null ? null : (known.contacts.get(parsed.fromAddress) ?? null),
      inReplyToEmailId,
      spamVerdict: d.spam.verdict,
      isSpam: d.spam.verdict === 'spam',
      spamDetails: d.spam.details,
      remoteAddress: d.message.remoteAddress ?? '',
      raw: d.message.raw,
      receivedAt: d.receivedAt,
      attachments: parsed.attachments,
    };
    rows.push(row);
    // Later messages of the batch that answer this one join its conversation.
    if (parsed.messageId !== null && !known.conversationsByHeader.has(parsed.messageId))
      known.conversationsByHeader.set(parsed.messageId, row.conversationId);
  }
  // Durable before the INSERTs: once the transaction commits, the pack its rows name has their bytes.
  await insertInboxMessages(tx, rows, await writeMessageBytes(deps.blobs, rows));
  await recordEvents(
    tx,
    rows.map((row, i) => {
      const { inbox } = deliveries[i]!;
      return {
        teamId: row.teamId,
        type: 'email.received' as const,
        domainId: inbox.domain_id,
        data: receivedEventData(row, { id: inbox.id, name: inbox.name, address: inbox.address }, deps.apiBaseUrl),
        at: row.receivedAt,
      };
    }),
  );
}

/** The intake of a running process (`herald smtp` and `herald worker` both record spooled mail). */
type ProcessParts = Pick<InboxIntakeDeps, 'db' | 'clock' | 'dns' | 'blobs' | 'logger'>;
type IntakeConfig = Pick<Config, 'mailDomain' | 'rspamdUrl' | 'publicUrl' | 'apiPrefix'>;
export function inboxIntakeOf({ config, ...parts }: ProcessParts & { config: IntakeConfig }): InboxIntake {
  const { mailDomain, rspamdUrl } = config;
  return createInboxIntake({ ...parts, mailDomain, rspamdUrl, apiBaseUrl: `${config.publicUrl}${config.apiPrefix}` });
}

// Double opt-in: the contact row is the job of the 'contact-confirmation' queue. A contact of a
// double opt-in book is stored unsubscribed and unconfirmed with confirmation_due_at = now (and a
// NOTIFY); this worker sends it the book's confirmation email through the email capability and
// clears the due time. The link in it (confirmation-links.ts) confirms the contact.
import { sql } from 'kysely';
import { canSendFrom } from '../domains/index.ts';
import { domainOf, parseAddress, sendEmails, type SendDeps } from '../emails/index.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import type { Secrets } from '../platform/crypto.ts';
import { ApiError } from '../platform/errors.ts';
import { defineQueue, PermanentJobError, type BatchContext, type Queue } from '../queue/index.ts';
import { CONTACT_CONFIRMATION_QUEUE } from './create-contact-state.ts';
import { confirmationUrl } from './confirmation-links.ts';
import { confirmationEmail } from './double-opt-in-email.ts';
import {
  dropConfirmations,
  getBookForConfirmation,
  markConfirmationSent,
  type ContactRow,
} from './double-opt-in-queries.ts';
import { contactUnsubscribeUrl } from './unsubscribe-links.ts';

export { CONTACT_CONFIRMATION_QUEUE };

const MINUTE = 60_000;

export interface ContactConfirmationDeps {
  secrets: Secrets;
  /** HERALD_PUBLIC_URL */
  publicUrl: string;
  /** Wakes the delivery workers after the email is stored (the email capability's own). */
  announcer: SendDeps['announcer'];
}

/** The team itself sending its confirmation email: full access, not limited to a domain, no key. */
export function systemPrincipal(teamId: number): Principal {
  return {
    // Stored as the email's api_key_id: names the sender, matches no real key.
    keyId: 'system:contact-confirmation',
    keyHash: Buffer.alloc(0),
    teamId,
    kind: 'full',
    domainId: null,
    memberId: null,
    makerRole: null,
    apiRateLimit: 0,
  };
}

/** A reason the job is dropped for good; logged, the contact stays unconfirmed with nothing due. */
const drop = (reason: string) => new PermanentJobError(reason);

async function sendConfirmation(deps: ContactConfirmationDeps, contact: ContactRow, ctx: BatchContext): Promise<void> {
  const teamId = contact.team_id;
  if (contact.unsubscribed_at !== null) throw drop('the contact unsubscribed before its confirmation email was sent');
  const book = await getBookForConfirmation(ctx.db, teamId, contact.contact_book_id);
  if (!book) throw drop('the contact book no longer exists');
  if (!book.double_opt_in_enabled) throw drop('the contact book no longer uses double opt-in');
  const from = book.double_opt_in_from === null ? null : parseAddress(book.double_opt_in_from);
  if (from === null) throw drop('the contact book has no valid doubleOptInFrom address');
  // Contract (Contact book): doubleOptInFrom must use a verified domain; it may have lost it since.
  if (!(await canSendFrom(ctx.db, teamId, domainOf(from.address))))
    throw drop(`${domainOf(from.address)} is not a verified domain of the team`);

  const now = ctx.clock.now();
  const link = { teamId, contactId: contact.id };
  let message;
  try {
    message = confirmationEmail(book, contact, {
      confirmUrl: confirmationUrl(deps.secrets, deps.publicUrl, { ...link, sentAt: now }),
      unsubscribeUrl: contactUnsubscribeUrl(deps.secrets, deps.publicUrl, link),
    });
  } catch (error) {
    if (error instanceof ApiError)
      throw drop(`the contact book's doubleOptInContent is not a valid editor document: ${error.message}`);
    throw error;
  }

  let emailId: string;
  try {
    [emailId] = (await sendEmails(
      { db: ctx.db, clock: ctx.clock, announcer: deps.announcer },
      systemPrincipal(teamId),
      [{ from: book.double_opt_in_from!, to: contact.email, subject: message.subject, html: message.html }],
      false,
    )) as [string];
  } catch (error) {
    // Over the send quota (429): tried again with backoff. Any other refusal will not change by itself.
    if (error instanceof ApiError && error.status !== 429)
      throw drop(`the confirmation email was refused: ${error.message}`);
    throw error;
  }
  // sendEmails commits on its own; this runs right after it. See README: a worker killed between the
  // two would send the email again when the lease expires.
  const marked = await markConfirmationSent(ctx.db, teamId, contact.id, ctx.leaseUntil, now);
  if (!marked)
    ctx.logger.warn({ teamId, contactId: contact.id, emailId }, 'confirmation email queued after the lease was lost');
  else ctx.logger.info({ teamId, contactId: contact.id, emailId }, 'confirmation email queued');
}

export function contactConfirmationQueue(deps: ContactConfirmationDeps): Queue {
  return defineQueue<ContactRow>({
    name: CONTACT_CONFIRMATION_QUEUE,
    table: 'contacts',
    idType: 'text',
    dueColumn: 'confirmation_due_at',
    leaseColumn: 'confirmation_lease_until',
    attemptsColumn: 'confirmation_attempts',
    readyWhere: sql`confirmation_due_at IS NOT NULL AND confirmed_at IS NULL`,
    batchSize: 20,
    leaseMs: 2 * MINUTE,
    // Mostly the daily send quota: tried for about a day before giving up.
    maxAttempts: 10,
    backoff: { baseMs: MINUTE, maxMs: 6 * 60 * MINUTE },
    handleRow: async (row, ctx) => {
      try {
        await sendConfirmation(deps, row, ctx);
      } catch (error) {
        // The runner records only the outcome; say why a confirmation waits.
        if (!(error instanceof PermanentJobError))
          ctx.logger.warn({ teamId: row.team_id, contactId: row.id, err: error }, 'confirmation email will be retried');
        throw error;
      }
    },
    // markConfirmationSent cleared the due time; the default statement clears the lease.
    onDone: sql`confirmation_attempts = 0`,
    onFailed: async (items, ctx) => {
      for (const item of items) {
        ctx.logger.warn(
          { teamId: item.row.team_id, contactId: item.row.id, reason: item.error },
          'confirmation email dropped',
        );
      }
      await dropConfirmations(
        ctx.db,
        items.map((item) => String(item.id)),
        ctx.leaseUntil,
      );
    },
  });
}

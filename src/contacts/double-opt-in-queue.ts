// Double opt-in: the contact row is the job of the 'contact-confirmation' queue. A contact of a
// double opt-in book is stored unsubscribed and unconfirmed with confirmation_due_at = now (and a
// NOTIFY); this worker queues the book's confirmation email (queueEmails) and clears the due time in
// one transaction, so the email is stored exactly when the contact is marked as sent: a worker
// killed or failing at any point leaves either both or neither. The link in it
// (confirmation-links.ts) confirms the contact.
import { sql } from 'kysely';
import { canSendFrom } from '../domains/index.ts';
import { domainOf, parseAddress, queueEmails } from '../emails/index.ts';
import { systemPrincipal } from '../platform/auth/system-principal.ts';
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
import { contactUnsubscribeUrl } from '../platform/unsubscribe-links.ts';

export { CONTACT_CONFIRMATION_QUEUE };

const MINUTE = 60_000;

interface ContactConfirmationDeps {
  secrets: Secrets;
  /** HERALD_PUBLIC_URL */
  publicUrl: string;
}

/** Another worker took the contact over (this one's lease ran out): it sends the email, not this one. */
class LeaseLost extends Error {}

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
    message = await confirmationEmail(book, contact, {
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
    // The contact's mark and the email commit together: no window where one is stored without the other.
    emailId = await ctx.db.transaction().execute(async (tx) => {
      const [id] = await queueEmails(
        tx,
        systemPrincipal(teamId, 'contact-confirmation'),
        [{ from: book.double_opt_in_from!, to: contact.email, subject: message.subject, html: message.html }],
        { now },
      );
      if (!(await markConfirmationSent(tx, teamId, contact.id, ctx.leaseUntil, now))) throw new LeaseLost();
      return id!;
    });
  } catch (error) {
    if (error instanceof LeaseLost) {
      ctx.logger.warn(
        { teamId, contactId: contact.id },
        'confirmation lease lost; the worker holding it sends the email',
      );
      return;
    }
    // Over the send quota (429): tried again with backoff. Any other refusal will not change by itself.
    if (error instanceof ApiError && error.status !== 429)
      throw drop(`the confirmation email was refused: ${error.message}`);
    throw error;
  }
  ctx.logger.info({ teamId, contactId: contact.id, emailId }, 'confirmation email queued');
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

// The one door for storing emails: every rule of a send checked once, in code, inside the caller's
// transaction, then the emails stored in it. Every caller goes through here: the HTTP send routes
// (many callers' sends at once in one shared transaction, send-batch.ts), one-time codes, journeys
// and double opt-in, so their own row and the email commit together or not at all. Each step that
// reads or writes the database runs once for all the sends given (contexts, usage, the insert); the
// rules run per send, in code, and a send refused by them is refused alone.
import type { Transaction } from 'kysely';
import type { Database, EmailSource } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError } from '../platform/errors.ts';
import { notifyQueue } from '../queue/index.ts';
import { confirmReservations, decideReservations, type UsageLock } from './limits.ts';
import { insertEmails } from './insert-queries.ts';
import type { NewEmail } from './queries.ts';
import { checkSend, prepareSends, type CheckedSend, type EmailSend } from './send-prepare.ts';

export type { EmailSend };
import type { SendEmailInput } from './schemas.ts';

/** A send and where it came from: 'api' unless said (SMTP submission says 'smtp'). */
export type SourcedSend = EmailSend & { source?: EmailSource | undefined };

/** The queue the delivery worker claims emails from. */
export const EMAIL_DELIVERY_QUEUE = 'email-delivery';
/** Campaign and journey mail's own lane over the same table (delivery.ts). */
export const BULK_DELIVERY_QUEUE = 'bulk-delivery';

export interface QueueEmailsOptions extends Pick<
  EmailSend,
  'batch' | 'mailDomain' | 'campaignId' | 'marketing' | 'bulk'
> {
  /** Where the send came from (emails.source): 'api' by default. */
  source?: EmailSource;
  /** The time of the send (the caller's deps.clock). */
  now: Date;
  /**
   * Who wakes the delivery workers: 'notify' (default) a NOTIFY in `tx`, delivered at its commit;
   * 'caller' nobody here, the caller announces after its commit when `queued` (the HTTP routes).
   */
  wake?: 'notify' | 'caller';
  /** When the teams' usage rows are locked (limits.ts): 'first' (default) or 'last'. */
  usageLock?: UsageLock;
  /**
   * The caller's own rows, written beside the sends (before them: the statement that stores the
   * emails takes the usage rows, so that under 'last' a team's row is held only from it to commit).
   */
  beside?: (outcomes: SendOutcome[]) => Promise<void>;
}

export interface QueuedEmails {
  /** The email ids, in input order. */
  ids: string[];
  /** Whether any of them is due now (QUEUED, not SCHEDULED or SUPPRESSED). */
  queued: boolean;
}

/** A send stored, or refused for its caller alone. */
export type SendOutcome = { sent: QueuedEmails } | { refused: ApiError };

/**
 * Sends `inputs` (the body of POST /v1/emails, or of the batch) as `principal`, inside `tx`: the
 * same checks and ApiErrors as the HTTP route (the body schema, verified from domain and the key's
 * domain limit, templates and variables, the 50-recipient rule, replies, suppressions and
 * unsubscribes, the plan's daily and monthly limits under the usage lock), then the emails with
 * their first events and recipients. Returns the email ids in input order.
 *
 * Every ApiError is thrown before anything of the send is written (empty usage rows of the day
 * aside). Any other error: the caller's transaction must roll back.
 */
export async function queueEmails(
  tx: Transaction<Database>,
  principal: Principal,
  inputs: SendEmailInput[],
  options: QueueEmailsOptions,
): Promise<string[]> {
  const { batch, mailDomain, campaignId, marketing, bulk, source, ...rest } = options;
  const [outcome] = await queueEmailSends(
    tx,
    [{ principal, inputs, batch, mailDomain, campaignId, marketing, bulk, source }],
    rest,
  );
  if ('refused' in outcome!) throw outcome.refused;
  return outcome!.sent.ids;
}

/**
 * queueEmails for many callers' sends at once, each checked alone: a send refused by a rule (an
 * ApiError) is that send's outcome, and the others are stored. The outcomes are in `sends` order.
 * The teams' usage rows are locked in team order, so two calls in flight cannot deadlock.
 */
export async function queueEmailSends(
  tx: Transaction<Database>,
  sends: SourcedSend[],
  options: Omit<QueueEmailsOptions, 'batch' | 'mailDomain' | 'campaignId' | 'marketing' | 'bulk' | 'source'>,
): Promise<SendOutcome[]> {
  const { now } = options;
  const outcomes: SendOutcome[] = new Array<SendOutcome>(sends.length);
  const refuse = (index: number, error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    outcomes[index] = { refused: error };
  };
  const checked: CheckedSend[] = [];
  for (const [index, send] of sends.entries()) {
    try {
      checked.push(await checkSend(tx, send, index));
    } catch (error) {
      refuse(index, error);
    }
  }
  const prepared = await prepareSends(tx, checked, now, refuse);
  for (const p of prepared) {
    const source = sends[p.index]!.source;
    if (source !== undefined) for (const email of p.emails) email.source = source;
  }
  const reservations = await decideReservations(
    tx,
    now,
    prepared.map((p) => ({ teamId: p.teamId, plan: p.plan, wanted: p.wanted })),
    options.usageLock ?? 'first',
    new Map(prepared.map((p) => [p.teamId, p.usage])),
  );
  const stored: { teamId: number; emails: NewEmail[] }[] = [];
  for (const [i, p] of prepared.entries()) {
    const refusal = reservations.refusals[i];
    if (refusal) refuse(p.index, refusal);
    else {
      stored.push(p);
      outcomes[p.index] = {
        sent: { ids: p.emails.map((e) => e.id), queued: p.emails.some((e) => e.status === 'QUEUED') },
      };
    }
  }
  // The caller's rows first: the statement that stores the emails also takes the usage rows, so
  // under 'last' they are held only from it to commit.
  await options.beside?.(outcomes);
  confirmReservations(reservations, await insertEmails(tx, now, stored, reservations));
  // NOTIFY at commit serialises notifying commits cluster-wide; fine for the low-volume callers
  // (the HTTP routes announce after their commit instead, through deps.announcer).
  const queued = outcomes.some((o) => 'sent' in o && o.sent.queued);
  if (queued && options.wake !== 'caller')
    await notifyQueue(
      tx,
      sends.some((s) => s.bulk === true || s.campaignId !== undefined) ? BULK_DELIVERY_QUEUE : EMAIL_DELIVERY_QUEUE,
    );
  return outcomes;
}

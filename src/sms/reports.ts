// Delivery reports from the providers. Each report names the provider's message id; the message is
// locked and the change applied under the status rules (duplicates and late reports change nothing),
// with its webhook event, in one transaction per report.
//
// A report may come before its id is recorded: the worker writes a batch's ids with its outcomes,
// after its slowest call (up to a minute), and Twilio does not retry a report answered 2xx. Such a
// report is kept (sms_pending_reports) and applied when the id appears: by the worker right after
// the outcome that records it (applyMatchedPendingReports), or by the report's own second look.
// Both sides write first and look second, so at least one of them sees the other; the message's
// lock makes sure only one applies it. Reports that never match are forgotten after PENDING_DAYS.
//
// A message left `sent` without its provider's id after an unconfirmed hand-off (reconcile.ts) is
// found by the recipient its report names; the report gives it the provider's id, and a `failed`
// (or a refusal) returns its charge: Herald could not confirm the hand-off, so the provider's word
// that it was not delivered is taken as the answer. Only a report kept for ADOPT_AFTER_MS is tied
// so: by then a newer message to the same number would have its own id recorded (its batch's calls
// end within a minute, its outcome is written right after), so its early report is not taken for
// the older message's.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { smsReason, type DeliveryReport } from '../adapters/sms-provider/index.ts';
import { applySmsChange } from './outcomes.ts';
import {
  keepPendingReport,
  matchedPendingIds,
  pendingRecipient,
  purgePendingReports,
  takePendingReports,
} from './pending-report-queries.ts';
import { getSmsByProviderIdForUpdate, type SmsRow } from './queries.ts';
import { adoptProviderId } from './reconcile-queries.ts';
import { awaitingIdOf } from './reconcile.ts';

const PENDING_DAYS = 3;
const ADOPT_AFTER_MS = 3 * 60_000;
/** Pending ids applied per call: a worker's batch records at most 500. */
const MATCHED_PER_CALL = 1000;

export interface ReportTally {
  applied: number;
  ignored: number;
  /** Kept for an id no message has yet. */
  pending: number;
}

/** Status order (contract: SMS status): `sent` before the final ones, so each has its event. */
const ORDER: Record<DeliveryReport['status'], number> = { sent: 0, delivered: 1, failed: 1, rejected: 1 };

/** The message a report is about, locked: by the provider's id, else one left waiting for it. */
async function messageForReport(
  tx: Transaction<Database>,
  provider: string,
  providerMessageId: string,
  /** The recipient of a report kept ADOPT_AFTER_MS, to find a message left waiting for its id. */
  to: string | undefined,
): Promise<SmsRow | undefined> {
  const row = await getSmsByProviderIdForUpdate(tx, provider, providerMessageId);
  if (row !== undefined || to === undefined) return row;
  const waiting = await getSmsByProviderIdForUpdate(tx, provider, awaitingIdOf(to));
  if (waiting !== undefined) await adoptProviderId(tx, provider, waiting.id, awaitingIdOf(to), providerMessageId);
  return waiting;
}

/** Applies one report to its locked message; the row as written, or null when the rules keep it. */
async function applyReport(
  tx: Transaction<Database>,
  row: SmsRow,
  report: DeliveryReport,
  now: Date,
): Promise<SmsRow | null> {
  // A refusal reported after the message was sent counts as failed: `rejected` is only from queued.
  // Every failed or rejected message has a reason (contract; a constraint in 0012_sms.sql).
  const status = report.status === 'rejected' && row.status !== 'queued' ? 'failed' : report.status;
  const reason = status === 'failed' || status === 'rejected' ? (report.reason ?? smsReason('unknown')) : undefined;
  // Left `sent` unconfirmed (its id still the awaiting one until a report's change writes the real one).
  if (row.provider_message_id !== awaitingIdOf(row.to_number)) return applySmsChange(tx, row, { status, reason }, now);
  const change = { status, reason, providerMessageId: report.providerMessageId };
  return applySmsChange(tx, row, status === 'failed' ? { ...change, release: true } : change, now);
}

export async function applyReports(
  db: Kysely<Database>,
  provider: string,
  reports: readonly DeliveryReport[],
  now: Date,
): Promise<ReportTally> {
  const tally: ReportTally = { applied: 0, ignored: 0, pending: 0 };
  for (const report of reports) {
    await db.transaction().execute(async (tx) => {
      const row = await getSmsByProviderIdForUpdate(tx, provider, report.providerMessageId);
      if (row === undefined) {
        await keepPendingReport(tx, provider, report, now);
        await purgePendingReports(tx, new Date(now.getTime() - PENDING_DAYS * 86_400_000));
        tally.pending++;
        return;
      }
      if (await applyReport(tx, row, report, now)) tally.applied++;
      else tally.ignored++;
    });
  }
  // The second look: an id recorded since the first one (the worker may have looked for waiting
  // reports before this one was committed); and older kept reports now due to find a message left
  // waiting for its id.
  if (tally.pending > 0) await applyMatchedPendingReports(db, provider, now);
  return tally;
}

/** Applies the reports waiting for `providerMessageId` if a message has it now, in status order. */
async function applyPendingReports(
  db: Kysely<Database>,
  provider: string,
  providerMessageId: string,
  now: Date,
): Promise<number> {
  const to = await pendingRecipient(db, provider, providerMessageId, adoptable(now));
  return db.transaction().execute(async (tx) => {
    let row = await messageForReport(tx, provider, providerMessageId, to);
    if (row === undefined) return 0;
    const reports = await takePendingReports(tx, provider, providerMessageId);
    reports.sort((a, b) => ORDER[a.status] - ORDER[b.status]);
    let applied = 0;
    for (const report of reports) {
      const written = await applyReport(tx, row, report, now);
      if (written === null) continue;
      row = written;
      applied++;
    }
    return applied;
  });
}

/** Reports kept since before this may find a message left waiting for its id. */
const adoptable = (now: Date) => new Date(now.getTime() - ADOPT_AFTER_MS);

/**
 * Applies every waiting report whose id a message now has (or, kept ADOPT_AFTER_MS, whose recipient
 * a message left waiting for its id has): the worker calls it after writing outcomes that recorded
 * provider ids (one small read when nothing waits); a crash between the two leaves them for the
 * next batch's call.
 */
export async function applyMatchedPendingReports(db: Kysely<Database>, provider: string, now: Date): Promise<number> {
  let applied = 0;
  for (const id of await matchedPendingIds(db, provider, awaitingIdOf(''), adoptable(now), MATCHED_PER_CALL))
    applied += await applyPendingReports(db, provider, id, now);
  return applied;
}

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
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { smsReason, type DeliveryReport } from '../adapters/sms-provider/index.ts';
import { applySmsChange } from './outcomes.ts';
import {
  keepPendingReport,
  matchedPendingIds,
  purgePendingReports,
  takePendingReports,
} from './pending-report-queries.ts';
import { getSmsByProviderIdForUpdate, type SmsRow } from './queries.ts';

const PENDING_DAYS = 3;
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

/** Applies one report to its locked message; the row as written, or null when the rules keep it. */
async function applyReport(
  tx: Transaction<Database>,
  row: SmsRow,
  report: DeliveryReport,
  now: Date,
): Promise<SmsRow | null> {
  // A refusal reported after the message was sent counts as failed: `rejected` is only from queued.
  // Every failed or rejected message has a reason (contract; a constraint since migration 0037).
  const status = report.status === 'rejected' && row.status !== 'queued' ? 'failed' : report.status;
  const reason = status === 'failed' || status === 'rejected' ? (report.reason ?? smsReason('unknown')) : undefined;
  return applySmsChange(tx, row, { status, reason }, now);
}

export async function applyReports(
  db: Kysely<Database>,
  provider: string,
  reports: readonly DeliveryReport[],
  now: Date,
): Promise<ReportTally> {
  const tally: ReportTally = { applied: 0, ignored: 0, pending: 0 };
  const kept: string[] = [];
  for (const report of reports) {
    await db.transaction().execute(async (tx) => {
      const row = await getSmsByProviderIdForUpdate(tx, provider, report.providerMessageId);
      if (row === undefined) {
        await keepPendingReport(tx, provider, report, now);
        await purgePendingReports(tx, new Date(now.getTime() - PENDING_DAYS * 86_400_000));
        kept.push(report.providerMessageId);
        tally.pending++;
        return;
      }
      if (await applyReport(tx, row, report, now)) tally.applied++;
      else tally.ignored++;
    });
  }
  // The second look: an id recorded since the first one (the worker may have looked for waiting
  // reports before this one was committed).
  for (const id of new Set(kept)) await applyPendingReports(db, provider, id, now);
  return tally;
}

/** Applies the reports waiting for `providerMessageId` if a message has it now, in status order. */
export async function applyPendingReports(
  db: Kysely<Database>,
  provider: string,
  providerMessageId: string,
  now: Date,
): Promise<number> {
  return db.transaction().execute(async (tx) => {
    let row = await getSmsByProviderIdForUpdate(tx, provider, providerMessageId);
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

/**
 * Applies every waiting report whose id a message now has: the worker calls it after writing
 * outcomes that recorded provider ids (one small read when nothing waits); a crash between the two
 * leaves them for the next batch's call.
 */
export async function applyMatchedPendingReports(db: Kysely<Database>, provider: string, now: Date): Promise<number> {
  let applied = 0;
  for (const id of await matchedPendingIds(db, provider, MATCHED_PER_CALL))
    applied += await applyPendingReports(db, provider, id, now);
  return applied;
}

// Delivery reports from the providers. Each report names the provider's message id; the message is
// locked and the change applied under the status rules (duplicates and late reports change nothing),
// with its webhook event, in one transaction per report.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { smsReason, type DeliveryReport } from '../adapters/sms-provider/index.ts';
import { applySmsChange } from './outcomes.ts';
import { getSmsByProviderIdForUpdate } from './queries.ts';

export interface ReportTally {
  applied: number;
  ignored: number;
  unknown: number;
}

export async function applyReports(
  db: Kysely<Database>,
  provider: string,
  reports: readonly DeliveryReport[],
  now: Date,
): Promise<ReportTally> {
  const tally: ReportTally = { applied: 0, ignored: 0, unknown: 0 };
  for (const report of reports) {
    await db.transaction().execute(async (tx) => {
      const row = await getSmsByProviderIdForUpdate(tx, provider, report.providerMessageId);
      if (row === undefined) {
        tally.unknown++;
        return;
      }
      // A refusal reported after the message was sent counts as failed: `rejected` is only from queued.
      // Every failed or rejected message has a reason (contract; a constraint since migration 0037).
      const status = report.status === 'rejected' && row.status !== 'queued' ? 'failed' : report.status;
      const reason = status === 'failed' || status === 'rejected' ? (report.reason ?? smsReason('unknown')) : undefined;
      const changed = await applySmsChange(tx, row, { status, reason }, now);
      if (changed) tally.applied++;
      else tally.ignored++;
    });
  }
  return tally;
}

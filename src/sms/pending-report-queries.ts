// The statements of reports that wait for their provider id (0012_sms.sql). Reports carry no team:
// the provider's id is all they name, as in sms_provider_ids.
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Database } from '../db/schema.ts';
import type { DeliveryReport, ReportStatus, SmsReasonCode } from '../adapters/sms-provider/index.ts';

/** Keeps a report for later; a duplicate (same id and status) is kept once. */
export async function keepPendingReport(
  tx: Transaction<Database>,
  provider: string,
  report: DeliveryReport,
  now: Date,
): Promise<void> {
  await tx
    .insertInto('sms_pending_reports')
    .values({
      provider,
      provider_message_id: report.providerMessageId,
      status: report.status,
      reason_code: report.reason?.code ?? null,
      reason_message: report.reason?.message ?? null,
      received_at: now,
      recipient: report.to ?? null,
    })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

/** Takes (deletes and answers) the reports waiting for one id; the caller holds its message's lock. */
export async function takePendingReports(
  tx: Transaction<Database>,
  provider: string,
  providerMessageId: string,
): Promise<DeliveryReport[]> {
  const rows = await tx
    .deleteFrom('sms_pending_reports')
    .where('provider', '=', provider)
    .where('provider_message_id', '=', providerMessageId)
    .returning(['status', 'reason_code', 'reason_message', 'recipient'])
    .execute();
  return rows.map((row) => ({
    providerMessageId,
    status: row.status as ReportStatus,
    ...(row.reason_code === null
      ? {}
      : { reason: { code: row.reason_code as SmsReasonCode, message: row.reason_message ?? '' } }),
    ...(row.recipient === null ? {} : { to: row.recipient }),
  }));
}

/** The recipient a report for `providerMessageId` kept since `keptBy` names, if any. */
export async function pendingRecipient(
  db: Db,
  provider: string,
  providerMessageId: string,
  keptBy: Date,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('sms_pending_reports')
    .select('recipient')
    .where('provider', '=', provider)
    .where('provider_message_id', '=', providerMessageId)
    .where('recipient', 'is not', null)
    .where('received_at', '<=', keptBy)
    .executeTakeFirst();
  return row?.recipient ?? undefined;
}

/**
 * Ids of waiting reports that a message now has, by the id, or (kept since `keptBy`) by the
 * recipient of a message left waiting for its id (`awaitingPrefix` + recipient: reconcile.ts
 * awaitingIdOf), at most `limit`. The
 * table is small (reports that came early, for seconds), so this reads it whole and looks each up by
 * the provider-id index.
 */
export async function matchedPendingIds(
  db: Db,
  provider: string,
  awaitingPrefix: string,
  keptBy: Date,
  limit: number,
): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    SELECT DISTINCT p.provider_message_id AS id FROM sms_pending_reports p
    WHERE p.provider = ${provider} AND (
      EXISTS (SELECT 1 FROM sms_provider_ids i
        WHERE i.provider_message_id = p.provider_message_id AND i.provider = p.provider)
      OR (p.recipient IS NOT NULL AND p.received_at <= ${keptBy} AND EXISTS (SELECT 1 FROM sms_provider_ids i
        WHERE i.provider_message_id = ${awaitingPrefix} || p.recipient AND i.provider = p.provider)))
    LIMIT ${limit}`.execute(db);
  return rows.rows.map((row) => row.id);
}

/** Forgets reports that never matched a message. */
export async function purgePendingReports(tx: Transaction<Database>, before: Date): Promise<void> {
  await tx.deleteFrom('sms_pending_reports').where('received_at', '<', before).execute();
}

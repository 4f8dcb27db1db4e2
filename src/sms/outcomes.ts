// Writes status changes with everything they cause, in one transaction: the row, the webhook event
// (sms.<status>, its payload the API's view of the row, through recordEvents) and, for `rejected`,
// the release of the charge. One message (a delivery report) or a worker's whole batch, each in few
// statements; the worker's way and the reports' way are the same.
import type { Kysely, Transaction } from 'kysely';
import type { Database, SmsStatus } from '../db/schema.ts';
import { release } from '../wallet/index.ts';
import { recordEvents } from '../webhooks/index.ts';
import { dropOrphanedDeliveries } from './delivery-queries.ts';
import { writeSmsOutcomes } from './outcome-queries.ts';
import { getLeasedSmsForUpdate, type SmsOutcomeRow, type SmsRow } from './queries.ts';
import { smsMayBecome } from './status.ts';
import { smsView } from './view.ts';

export interface SmsChange {
  /** Every status but the first: a message is stored `queued` and never returns to it. */
  status: Exclude<SmsStatus, 'queued'>;
  reason?: { code: string; message: string } | null;
  provider?: string;
  providerMessageId?: string;
  /**
   * Returns the charge with this change (besides `rejected`, which always does): a message left
   * `sent` after an unconfirmed hand-off that its provider then reports failed (reports.ts).
   */
  release?: true;
}

/** The row after `change`, or null when the status rules keep the current status. */
function changedRow<R extends SmsOutcomeRow>(row: R, change: SmsChange, now: Date): R | null {
  if (!smsMayBecome(row.status, change.status)) return null;
  return {
    ...row,
    status: change.status,
    reason_code: change.reason === undefined ? row.reason_code : (change.reason?.code ?? null),
    reason_message: change.reason === undefined ? row.reason_message : (change.reason?.message ?? null),
    provider: change.provider ?? row.provider,
    provider_message_id: change.providerMessageId ?? row.provider_message_id,
    sent_at: change.status === 'sent' ? now : row.sent_at,
    delivered_at: change.status === 'delivered' ? now : row.delivered_at,
    updated_at: now,
  };
}

/** An `sms.<status>` event a change caused, with the message as the change left it. */
interface SmsChangeEvent<R extends SmsOutcomeRow = SmsRow> {
  status: SmsChange['status'];
  row: R;
}

/** What a set of changes comes to: the rows to write, the charges to release and the events. */
interface PlannedSmsChanges<R extends SmsOutcomeRow = SmsRow> {
  written: R[];
  released: R[];
  events: SmsChangeEvent<R>[];
}

/**
 * Applies each message's changes, in order, in memory. A change the rules refuse is skipped
 * (duplicates and late reports).
 */
function planSmsChanges<R extends SmsOutcomeRow>(
  items: readonly { row: R; changes: readonly SmsChange[] }[],
  now: Date,
): PlannedSmsChanges<R> {
  const planned: PlannedSmsChanges<R> = { written: [], released: [], events: [] };
  for (const { row, changes } of items) {
    let current = row;
    for (const change of changes) {
      const next = changedRow(current, change, now);
      if (next === null) continue;
      if ((next.status === 'rejected' || change.release === true) && next.charge_transaction_id !== null)
        planned.released.push(next);
      planned.events.push({ status: change.status, row: next });
      current = next;
    }
    if (current !== row) planned.written.push(current);
  }
  return planned;
}

/**
 * Applies each message's changes to rows locked by the caller; answers the rows that changed, as
 * written.
 */
async function applySmsChanges(
  tx: Transaction<Database>,
  items: readonly { row: SmsRow; changes: readonly SmsChange[] }[],
  now: Date,
): Promise<SmsRow[]> {
  const { written, released, events } = planSmsChanges(items, now);
  await writeSmsOutcomes(tx, written);
  // Refusals are few (a provider that refuses every message is a misconfiguration), so one by one.
  for (const row of released) await release(tx, row.team_id, { chargeId: row.charge_transaction_id!, at: now });
  await recordEvents(
    tx,
    events.map((event) => ({
      teamId: event.row.team_id,
      type: `sms.${event.status}` as const,
      domainId: null,
      data: smsView(event.row),
      at: now,
    })),
  );
  return written;
}

/** Applies `change` to a row locked by the caller; null when the rules keep the current status. */
export async function applySmsChange(
  tx: Transaction<Database>,
  row: SmsRow,
  change: SmsChange,
  now: Date,
): Promise<SmsRow | null> {
  const [written] = await applySmsChanges(tx, [{ row, changes: [change] }], now);
  return written ?? null;
}

/**
 * A delivery worker's outcomes: the messages still queued under its lease are locked (another worker
 * may have taken one over, or a report moved it) and their changes applied, in one transaction.
 */
export async function applyLeasedSmsChanges(
  db: Kysely<Database>,
  leaseUntil: Date,
  items: readonly { id: string; changes: readonly SmsChange[] }[],
  now: Date,
): Promise<SmsRow[]> {
  if (items.length === 0) return [];
  return db.transaction().execute(async (tx) => {
    const leased = await getLeasedSmsForUpdate(
      tx,
      items.map((item) => item.id),
      leaseUntil,
    );
    const still = items.flatMap((item) => {
      const row = leased.get(item.id);
      return row === undefined ? [] : [{ row, changes: item.changes }];
    });
    if (still.length < items.length) {
      const missing = items.filter((item) => !leased.has(item.id)).map((item) => item.id);
      await dropOrphanedDeliveries(tx, missing, leaseUntil);
    }
    return applySmsChanges(tx, still, now);
  });
}

// Writes a status change with everything it causes, in one transaction: the row, the webhook event
// (sms.<status>, through the event catalogue) and, for `rejected`, the release of the charge.
import type { Transaction } from 'kysely';
import type { Database, SmsStatus } from '../db/schema.ts';
import { release } from '../wallet/index.ts';
import { recordEvent } from '../webhooks/index.ts';
import type { SmsRow } from './queries.ts';
import { updateSms } from './queries.ts';
import { smsMayBecome } from './status.ts';
import { smsView } from './view.ts';

export interface SmsChange {
  /** Every status but the first: a message is stored `queued` and never returns to it. */
  status: Exclude<SmsStatus, 'queued'>;
  reason?: { code: string; message: string } | null;
  provider?: string;
  providerMessageId?: string;
}

/** Applies `change` to a row locked by the caller; null when the rules keep the current status. */
export async function applySmsChange(
  tx: Transaction<Database>,
  row: SmsRow,
  change: SmsChange,
  now: Date,
): Promise<SmsRow | null> {
  if (!smsMayBecome(row.status, change.status)) return null;
  const updated: SmsRow = {
    ...row,
    status: change.status,
    reason_code: change.reason === undefined ? row.reason_code : (change.reason?.code ?? null),
    reason_message: change.reason === undefined ? row.reason_message : (change.reason?.message ?? null),
    provider: change.provider ?? row.provider,
    provider_message_id: change.providerMessageId ?? row.provider_message_id,
    next_attempt_at: null,
    lease_until: null,
    sent_at: change.status === 'sent' ? now : row.sent_at,
    delivered_at: change.status === 'delivered' ? now : row.delivered_at,
    updated_at: now,
  };
  await updateSms(tx, row.team_id, row.id, {
    status: updated.status,
    reason_code: updated.reason_code,
    reason_message: updated.reason_message,
    provider: updated.provider,
    provider_message_id: updated.provider_message_id,
    next_attempt_at: null,
    lease_until: null,
    sent_at: updated.sent_at,
    delivered_at: updated.delivered_at,
    updated_at: now,
  });
  if (change.status === 'rejected' && row.charge_transaction_id !== null)
    await release(tx, row.team_id, { chargeId: row.charge_transaction_id, at: now });
  await recordEvent(tx, {
    teamId: row.team_id,
    type: `sms.${change.status}`,
    domainId: null,
    data: smsView(updated),
    at: now,
  });
  return updated;
}

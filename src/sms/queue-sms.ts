// Charging and storing a prepared SMS. The price is the destination's per-part price for the team's
// tier (its parts this month before this message) times the message's parts, rounded half away from
// zero to the minor unit; a price that rounds to nothing takes nothing (the ledger has no zero rows).
// Every path locks the team's wallet before it reads or moves the month's parts, so the wallet lock
// also orders the tiers.
import type { WalletTransactionRow } from '../db/schema-wallet.ts';
import { ApiError } from '../platform/errors.ts';
import { millionthsToMinor, priceTimes } from '../platform/money.ts';
import { smsPrice, type PriceList } from '../platform/price-list.ts';
import { lockWallets, planCharge, writeMovements, type Tx } from '../wallet/index.ts';
import type { PreparedSms } from './prepare.ts';
import { countMonthlyParts, insertSms, type SmsRow } from './queries.ts';

/** The first day of `at`'s UTC month: the key of the month's parts. */
export const monthOf = (at: Date) => `${at.toISOString().slice(0, 7)}-01`;

/** What the message costs for a team that sent `partsBefore` parts this month. */
export function smsCharge(prices: PriceList, sms: PreparedSms, partsBefore: number): bigint {
  const unitPrice = smsPrice(prices, sms.currency, sms.country, partsBefore);
  return millionthsToMinor(priceTimes(unitPrice, sms.segments), sms.currency);
}

export function chargeInput(sms: PreparedSms, amountMinor: bigint) {
  const parts = `${sms.segments} segment${sms.segments === 1 ? '' : 's'}`;
  return {
    amountMinor,
    type: 'SMS_CHARGE' as const,
    reference: sms.id,
    description: `SMS to ${sms.country}, ${parts}`,
    at: sms.now,
  };
}

/** The message's row as stored: `queued` (its queue row makes it due now). */
export function queuedRow(sms: PreparedSms, chargeMinor: bigint, charged: WalletTransactionRow | null): SmsRow {
  return {
    id: sms.id,
    team_id: sms.teamId,
    api_key_id: sms.keyId,
    to_number: sms.to,
    to_prefix: sms.toPrefix,
    country: sms.country,
    sender_id: sms.senderId,
    body: sms.text,
    encoding: sms.encoding,
    segments: sms.segments,
    currency: sms.currency,
    charge_minor: chargeMinor,
    charge_transaction_id: charged?.id ?? null,
    status: 'queued',
    reason_code: null,
    reason_message: null,
    provider: null,
    provider_message_id: null,
    client_ip_hash: sms.clientIpHash,
    risk_score: sms.riskScore,
    sent_at: null,
    delivered_at: null,
    created_at: sms.now,
    updated_at: sms.now,
  };
}

const emptyWallet = () => new ApiError(402, 'INSUFFICIENT_BALANCE', 'The wallet is empty: top it up first');

/**
 * Charges and stores one message in the caller's transaction (one-time codes send theirs this way,
 * beside the code). 402 INSUFFICIENT_BALANCE when the wallet cannot pay: the caller's transaction
 * must then roll back (the month's parts were counted in it).
 */
export async function queueSms(tx: Tx, prices: PriceList, sms: PreparedSms): Promise<SmsRow> {
  const wallet = (await lockWallets(tx, [sms.teamId])).get(sms.teamId);
  const partsBefore = await countMonthlyParts(tx, sms.teamId, monthOf(sms.now), sms.segments);
  const chargeMinor = smsCharge(prices, sms, partsBefore);
  let charged: WalletTransactionRow | null = null;
  if (chargeMinor > 0n) {
    if (wallet === undefined) throw emptyWallet();
    charged = planCharge(wallet, chargeInput(sms, chargeMinor));
    await writeMovements(tx, [charged]);
  }
  const row = queuedRow(sms, chargeMinor, charged);
  await insertSms(tx, row);
  return row;
}

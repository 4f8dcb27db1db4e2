// Charging and storing prepared SMS: queueSms, the one door. The price is the destination's per-part
// price for the team's tier (its parts this month before this message) times the message's parts,
// rounded half away from zero to the minor unit; a price that rounds to nothing takes nothing (the
// ledger has no zero rows). The team's wallet is locked before the month's parts are read or moved,
// so the wallet lock also orders the tiers.
import type { WalletTransactionRow } from '../db/schema-wallet.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError } from '../platform/errors.ts';
import { millionthsToMinor, priceTimes } from '../platform/money.ts';
import { smsPrice, type PriceList } from '../platform/price-list.ts';
import { lockWallets, planCharge, writeMovements, type Tx } from '../wallet/index.ts';
import type { PreparedSms } from './prepare.ts';
import { insertSmsMany, monthlyParts, type SmsRow } from './queries.ts';

/** The first day of `at`'s UTC month: the key of the month's parts. */
const monthOf = (at: Date) => `${at.toISOString().slice(0, 7)}-01`;

/** What the message costs for a team that sent `partsBefore` parts this month. */
export function smsCharge(prices: PriceList, sms: PreparedSms, partsBefore: number): bigint {
  const unitPrice = smsPrice(prices, sms.currency, sms.country, partsBefore);
  return millionthsToMinor(priceTimes(unitPrice, sms.segments), sms.currency);
}

function chargeInput(sms: PreparedSms, amountMinor: bigint) {
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

export interface QueueSmsOptions {
  prices: PriceList;
}

/**
 * The one way an SMS is stored (the API, one-time codes, the API's shared batch): the messages
 * prepareSms checked for `principal`'s team, charged to its wallet and stored `queued` with their
 * delivery queue rows, in the caller's transaction. Every charge is planned before anything is
 * written, so a 402 INSUFFICIENT_BALANCE (the wallet cannot pay for them all) writes nothing and the
 * caller's transaction may go on. The caller wakes the delivery worker after commit.
 */
export async function queueSms(
  tx: Tx,
  principal: Pick<Principal, 'teamId'>,
  messages: readonly PreparedSms[],
  options: QueueSmsOptions,
): Promise<SmsRow[]> {
  const teamId = principal.teamId;
  if (messages.some((sms) => sms.teamId !== teamId)) throw new Error('queueSms: a message of another team');
  if (messages.length === 0) return [];
  const wallet = (await lockWallets(tx, [teamId])).get(teamId);
  const parts = await monthlyParts(
    tx,
    teamId,
    messages.map((sms) => monthOf(sms.now)),
  );
  const charges: WalletTransactionRow[] = [];
  const rows = messages.map((sms) => {
    const month = monthOf(sms.now);
    const partsBefore = parts.get(month) ?? 0;
    const chargeMinor = smsCharge(options.prices, sms, partsBefore);
    let charged: WalletTransactionRow | null = null;
    if (chargeMinor > 0n) {
      if (wallet === undefined) throw emptyWallet();
      charged = planCharge(wallet, chargeInput(sms, chargeMinor));
      charges.push(charged);
    }
    parts.set(month, partsBefore + sms.segments);
    return queuedRow(sms, chargeMinor, charged);
  });
  await writeMovements(tx, charges);
  await insertSmsMany(tx, rows);
  return rows;
}

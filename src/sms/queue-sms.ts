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
import { insertSmsMany, monthlyParts, partsKey, type SmsRow } from './queries.ts';

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

/** One caller's messages. */
export interface SmsSend {
  principal: Pick<Principal, 'teamId'>;
  messages: readonly PreparedSms[];
}

/** A send stored, or refused (402) for its caller alone. */
export type SmsSendOutcome = { rows: SmsRow[] } | { refused: ApiError };

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
  const [outcome] = await queueSmsSends(tx, [{ principal, messages }], options);
  if ('refused' in outcome!) throw outcome.refused;
  return outcome!.rows;
}

/**
 * queueSms for many callers' sends at once: the wallets locked (in team order, so two calls in
 * flight cannot deadlock) and the months' parts read once for all of them, each send priced and
 * charged in order as if alone (a refused one leaves its wallet and parts as they were), then every
 * charge and message written in two statements. Outcomes in `sends` order.
 */
export async function queueSmsSends(
  tx: Tx,
  sends: readonly SmsSend[],
  options: QueueSmsOptions,
): Promise<SmsSendOutcome[]> {
  for (const { principal, messages } of sends)
    if (messages.some((sms) => sms.teamId !== principal.teamId)) throw new Error('queueSms: a message of another team');
  const all = sends.flatMap((send) => send.messages);
  if (all.length === 0) return sends.map(() => ({ rows: [] }));
  const wallets = await lockWallets(
    tx,
    all.map((sms) => sms.teamId),
  );
  const parts = await monthlyParts(
    tx,
    all.map((sms) => ({ teamId: sms.teamId, month: monthOf(sms.now) })),
  );
  const charges: WalletTransactionRow[] = [];
  const stored: SmsRow[] = [];
  const outcomes = sends.map((send): SmsSendOutcome => {
    const wallet = wallets.get(send.principal.teamId);
    const before = wallet && { ...wallet };
    const partsBefore = new Map(parts);
    try {
      const rows = send.messages.map((sms) => {
        const key = partsKey(sms.teamId, monthOf(sms.now));
        const partsSoFar = parts.get(key) ?? 0;
        const chargeMinor = smsCharge(options.prices, sms, partsSoFar);
        let charged: WalletTransactionRow | null = null;
        if (chargeMinor > 0n) {
          if (wallet === undefined) throw emptyWallet();
          charged = planCharge(wallet, chargeInput(sms, chargeMinor));
        }
        parts.set(key, partsSoFar + sms.segments);
        return { row: queuedRow(sms, chargeMinor, charged), charged };
      });
      for (const { row, charged } of rows) {
        stored.push(row);
        if (charged) charges.push(charged);
      }
      return { rows: rows.map((r) => r.row) };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // planCharge moved the locked wallet in memory: put it (and the parts) back as they were.
      if (wallet && before) Object.assign(wallet, before);
      parts.clear();
      for (const [key, value] of partsBefore) parts.set(key, value);
      return { refused: error };
    }
  });
  await writeMovements(tx, charges);
  await insertSmsMany(tx, stored);
  return outcomes;
}

// POST /v1/sms: every check that needs no money first (number, destination, team, sender ID, risk),
// then one transaction counts the message in the team's month (its price tier), charges the wallet
// and stores the message as `queued`; the message row is the delivery job. A refused charge (402)
// rolls all of it back.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { badRequest, forbidden, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { millionthsToMinor, priceTimes, type Currency } from '../platform/money.ts';
import { smsPrice, type PriceList } from '../platform/price-list.ts';
import { refuseHighRisk, type RiskThresholds } from '../platform/risk.ts';
import type { QueueAnnouncer } from '../queue/index.ts';
import { charge, listSenderIds } from '../wallet/index.ts';
import { parsePhone, phonePrefix } from './phone.ts';
import { countMonthlyParts, getSmsTeam, insertSms, type SmsRow } from './queries.ts';
import { assessSmsRisk } from './risk.ts';
import type { SendSmsInput } from './schemas.ts';
import { countSegments } from './segments.ts';

export const SMS_DELIVERY_QUEUE = 'sms-delivery';

export interface SmsSendDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  announcer: QueueAnnouncer;
  prices: PriceList;
  sms: {
    /** HERALD_SMS_COUNTRIES: null means every country. */
    countries: ReadonlySet<string> | null;
    sharedSenderId: string;
  };
  risk: RiskThresholds;
}

/** Sender ID for the destination: the requested one if approved (or the shared one), else the team's, else shared. */
async function resolveSenderId(
  deps: SmsSendDeps,
  teamId: number,
  country: string,
  requested: string | undefined,
): Promise<string> {
  const approved = (await listSenderIds(deps.db, teamId, country)).map((row) => row.sender_id);
  if (requested === undefined) return approved[0] ?? deps.sms.sharedSenderId;
  if (requested === deps.sms.sharedSenderId || approved.includes(requested)) return requested;
  throw badRequest(
    `senderId: "${requested}" is not an approved sender ID of this team for ${country}; omit it to use the default`,
  );
}

const monthOf = (at: Date) => `${at.toISOString().slice(0, 7)}-01`;

export async function sendSms(deps: SmsSendDeps, principal: Principal, input: SendSmsInput): Promise<SmsRow> {
  const phone = parsePhone(input.to);
  if (!phone.ok) throw badRequest(`to: ${phone.reason}`);
  const country = phone.country;
  if (country === null) throw badRequest('to: non-geographic numbers cannot receive SMS');
  if (deps.sms.countries !== null && !deps.sms.countries.has(country))
    throw forbidden(`This deployment does not send SMS to ${country} (the environment refuses the destination)`);

  const teamId = principal.teamId;
  const team = await getSmsTeam(deps.db, teamId);
  if (team === undefined) throw notFound('Team');
  if (!team.sms_enabled) throw forbidden('SMS is not enabled for this team');
  const currency = team.currency as Currency;
  const senderId = await resolveSenderId(deps, teamId, country, input.senderId);

  const now = deps.clock.now();
  const clientIpHash = input.clientIp === undefined ? null : deps.secrets.hmac('client-ip', input.clientIp);
  const toPrefix = phonePrefix(phone.e164);
  const risk = await assessSmsRisk(deps.db, teamId, {
    phone,
    country,
    toPrefix,
    clientIpHash,
    now,
    thresholds: deps.risk,
  });
  refuseHighRisk(risk);

  const { encoding, segments } = countSegments(input.text);
  const id = newId('sms_', now);
  const row = await deps.db.transaction().execute(async (tx) => {
    const volume = await countMonthlyParts(tx, teamId, monthOf(now), segments);
    const unitPrice = smsPrice(deps.prices, currency, country, volume);
    const chargeMinor = millionthsToMinor(priceTimes(unitPrice, segments), currency);
    // A price that rounds to nothing takes nothing: the ledger has no zero rows.
    const charged =
      chargeMinor === 0n
        ? null
        : await charge(tx, teamId, {
            amountMinor: chargeMinor,
            type: 'SMS_CHARGE',
            reference: id,
            description: `SMS to ${country}, ${segments} segment${segments === 1 ? '' : 's'}`,
            at: now,
          });
    const stored: Omit<SmsRow, 'attempts' | 'recorded_attempts'> = {
      id,
      team_id: teamId,
      api_key_id: principal.keyId,
      to_number: phone.e164,
      to_prefix: toPrefix,
      country,
      sender_id: senderId,
      body: input.text,
      encoding,
      segments,
      currency,
      charge_minor: chargeMinor,
      charge_transaction_id: charged?.id ?? null,
      status: 'queued',
      reason_code: null,
      reason_message: null,
      provider: null,
      provider_message_id: null,
      client_ip_hash: clientIpHash,
      risk_score: risk.score,
      next_attempt_at: now,
      lease_until: null,
      last_error: null,
      sent_at: null,
      delivered_at: null,
      created_at: now,
      updated_at: now,
    };
    await insertSms(tx, stored);
    return { ...stored, attempts: 0, recorded_attempts: 0 };
  });
  deps.announcer.announce(SMS_DELIVERY_QUEUE);
  return row;
}

/** The send path's dependencies, from the process's. */
export function smsSendDeps(deps: Deps): SmsSendDeps {
  return {
    db: deps.db,
    clock: deps.clock,
    secrets: deps.secrets,
    announcer: deps.announcer,
    prices: deps.config.prices,
    sms: {
      countries: deps.config.smsCountries,
      sharedSenderId: deps.config.smsSharedSenderId,
    },
    risk: deps.config.risk,
  };
}

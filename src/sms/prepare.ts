// Every check of an SMS send that needs no money, before anything is stored (contract rule 1): the
// number and its country, the team's SMS switch, the sender ID and risk. Its answer carries all a
// store path needs: the message's id and clock, segments and the team's currency.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { badRequest, forbidden, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { Coalescer } from '../platform/coalescer.ts';
import type { Currency } from '../platform/money.ts';
import { refuseHighRisk, type RiskThresholds } from '../platform/risk.ts';
import { parsePhone, phonePrefix } from '../platform/phone.ts';
import { readSendContexts, type ContextQuery, type SendContext } from './context-queries.ts';
import { assessSmsRisk, RISK_COUNT_CAP, RISK_WINDOW_MS } from './risk.ts';
import type { SendSmsInput } from './schemas.ts';
import { countSegments, type SmsEncoding } from './segments.ts';

export interface SmsCheckDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  sms: {
    /** HERALD_SMS_COUNTRIES: null means every country. */
    countries: ReadonlySet<string> | null;
    sharedSenderId: string;
  };
  risk: RiskThresholds;
  /** The API process's shared context reads (sendContextBatching); without it each send reads alone. */
  contexts?: Coalescer<ContextQuery, SendContext>;
}

/** Concurrent sends of a process read their contexts in one statement. */
export function sendContextBatching(db: Kysely<Database>): Coalescer<ContextQuery, SendContext> {
  return new Coalescer((queries) => readSendContexts(db, queries), { maxBatch: 64, concurrency: 2 });
}

/** A message that passed every check, ready to be charged and stored. */
export interface PreparedSms {
  id: string;
  teamId: number;
  keyId: string | null;
  to: string;
  toPrefix: string;
  country: string;
  senderId: string;
  text: string;
  encoding: SmsEncoding;
  segments: number;
  currency: Currency;
  clientIpHash: Buffer | null;
  riskScore: number;
  now: Date;
}

/** Sender ID for the destination: the requested one if approved (or the shared one), else the team's, else shared. */
function resolveSenderId(
  approved: readonly string[],
  sharedSenderId: string,
  country: string,
  requested: string | undefined,
): string {
  if (requested === undefined) return approved[0] ?? sharedSenderId;
  if (requested === sharedSenderId || approved.includes(requested)) return requested;
  throw badRequest(
    `senderId: "${requested}" is not an approved sender ID of this team for ${country}; omit it to use the default`,
  );
}

export async function prepareSms(
  deps: SmsCheckDeps,
  sender: { teamId: number; keyId: string | null },
  input: SendSmsInput,
): Promise<PreparedSms> {
  const phone = parsePhone(input.to);
  if (!phone.ok) throw badRequest(`to: ${phone.reason}`);
  const country = phone.country;
  if (country === null) throw badRequest('to: non-geographic numbers cannot receive SMS');
  if (deps.sms.countries !== null && !deps.sms.countries.has(country))
    throw forbidden(`This deployment does not send SMS to ${country} (the environment refuses the destination)`);

  const { teamId } = sender;
  const now = deps.clock.now();
  const clientIpHash = input.clientIp === undefined ? null : deps.secrets.hmac('client-ip', input.clientIp);
  const toPrefix = phonePrefix(phone.e164);
  const query: ContextQuery = {
    teamId,
    country,
    toPrefix,
    toNumber: phone.e164,
    clientIpHash,
    since: new Date(now.getTime() - RISK_WINDOW_MS),
    cap: RISK_COUNT_CAP,
  };
  const context =
    deps.contexts === undefined ? (await readSendContexts(deps.db, [query]))[0]! : await deps.contexts.submit(query);
  if (context.team === undefined) throw notFound('Team');
  if (!context.team.smsEnabled) throw forbidden('SMS is not enabled for this team');
  const senderId = resolveSenderId(context.senderIds, deps.sms.sharedSenderId, country, input.senderId);
  const risk = assessSmsRisk(context.recent, { phone, country, clientIpHash, thresholds: deps.risk });
  refuseHighRisk(risk);

  const { encoding, segments } = countSegments(input.text);
  return {
    id: newId('sms_', now),
    teamId,
    keyId: sender.keyId,
    to: phone.e164,
    toPrefix,
    country,
    senderId,
    text: input.text,
    encoding,
    segments,
    currency: context.team.currency as Currency,
    clientIpHash,
    riskScore: risk.score,
    now,
  };
}

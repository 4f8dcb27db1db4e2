// POST /v1/verify/send: the channel's checks (400/403/404 before anything else), then risk scoring
// (HIGH: the refusal is stored without a code and answered 422 with its reasons and id), then the
// rate limits (429), then one transaction holding the code and its message: the email through
// queueEmails, or the SMS charged to the wallet through queueSms (402 rolls both back).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { Coalescer } from '../platform/coalescer.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import type { RateLimiter } from '../platform/rate-limit/index.ts';
import type { RiskAssessment, RiskThresholds } from '../platform/risk.ts';
import type { SendBatching, SendDeps } from '../emails/index.ts';
import { smsSendDeps, type SmsSendDeps, type SmsSendSource } from '../sms/index.ts';
import { checkBatching } from './check.ts';
import { codeHash } from './codes.ts';
import { enforceSendLimits } from './limits.ts';
import { insertVerification, type Guess, type GuessOutcome, type VerificationRow } from './queries.ts';
import { readSendFacts, type FactsQuestion, type RiskCounts, type SendFacts } from './send-facts-queries.ts';
import { CONVERSION, scoreVerification, VELOCITY_AT, VELOCITY_WINDOW_MS, type RiskFacts } from './risk.ts';
import { ATTEMPTS } from './schemas.ts';
import type { SmsDelivery } from './view.ts';

export interface VerifyDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  rateLimiter: RateLimiter;
  risk: RiskThresholds;
  /** The SMS area's send dependencies (checks, prices, announcer), without its store batch. */
  sms: SmsSendDeps;
  /** The emails area's send dependencies; with the API process's batching, a code and its email share a transaction with other sends. */
  email: SendDeps;
  /** The API process's shared facts read (sendFactsBatching); without it each send reads alone. */
  facts?: Coalescer<FactsQuestion, SendFacts | undefined>;
  /** The API process's shared guess statement (checkBatching); without it each check writes alone. */
  guesses?: Coalescer<Guess, GuessOutcome>;
}

/** What verify's dependencies are built from in app.ts: the SMS send's, the rate limiter and the mail domain. */
export type VerifySource = SmsSendSource & {
  rateLimiter: RateLimiter;
  config: SmsSendSource['config'] & { mailDomain: string };
};

export function verifyDeps(deps: VerifySource, emailBatching?: SendBatching): VerifyDeps {
  return {
    ...(emailBatching ? { facts: sendFactsBatching(deps.db), guesses: checkBatching(deps.db) } : {}),
    db: deps.db,
    clock: deps.clock,
    secrets: deps.secrets,
    rateLimiter: deps.rateLimiter,
    risk: deps.config.risk,
    sms: smsSendDeps(deps),
    email: {
      db: deps.db,
      clock: deps.clock,
      announcer: deps.announcer,
      config: { mailDomain: deps.config.mailDomain },
      ...(emailBatching ? { batching: emailBatching } : {}),
    },
  };
}

export interface SentVerification {
  row: VerificationRow;
  delivery: SmsDelivery | null;
}

/** Who the code goes to, as the risk counts and the stored row see it. */
export interface Recipient {
  channel: 'email' | 'sms';
  to: string;
  toPrefix: string | null;
  country: string | null;
  clientIpHash: Buffer | null;
}

/** The history the risk signals count for this send. */
export function riskQuestion(r: Recipient, now: Date) {
  return {
    to: r.to,
    clientIpHash: r.clientIpHash,
    toPrefix: r.toPrefix,
    country: r.country,
    since: new Date(now.getTime() - VELOCITY_WINDOW_MS),
    conversionSince: new Date(now.getTime() - CONVERSION.windowMs),
    conversionUntil: new Date(now.getTime() - CONVERSION.settleMs),
    conversionSample: CONVERSION.sample,
    now,
    cap: Math.max(VELOCITY_AT.recipient, VELOCITY_AT.clientIp, VELOCITY_AT.prefix),
  };
}

/** The score of a send from its history's counts; the channel adds what it knows of the recipient. */
export function scoreOf(
  deps: VerifyDeps,
  r: Recipient,
  counts: RiskCounts,
  recipientFacts: Pick<RiskFacts, 'numberType' | 'emailDomain' | 'disposableEmail'>,
): RiskAssessment {
  return scoreVerification(
    { channel: r.channel, counts, hasClientIp: r.clientIpHash !== null, country: r.country, ...recipientFacts },
    deps.risk,
  );
}

/** A send's context and risk counts: through the process's shared read when it has one. */
export async function sendFactsOf(deps: VerifyDeps, question: FactsQuestion): Promise<SendFacts | undefined> {
  if (deps.facts !== undefined) return deps.facts.submit(question);
  const [facts] = await readSendFacts(deps.db, [question]);
  return facts;
}

/**
 * Concurrent sends of a process read their facts in one statement, one read at a time: sends that
 * arrive meanwhile share the next read (measured faster than two reads in flight, bench/verify.ts).
 * The next read starts at once: the send's transaction after it is what gathers (send-batch.ts),
 * and a wait here measured as latency only.
 */
export function sendFactsBatching(db: Kysely<Database>): Coalescer<FactsQuestion, SendFacts | undefined> {
  return new Coalescer((questions) => readSendFacts(db, questions), { maxBatch: 64 });
}

const NO_CONTEXT = { fromDomain: null, to: null, keyDomainId: null };

/** The risk of a send from the stored history (one read; an SMS code asks nothing of the context). */
export async function riskOf(
  deps: VerifyDeps,
  teamId: number,
  r: Recipient,
  now: Date,
  recipientFacts: Pick<RiskFacts, 'numberType' | 'emailDomain' | 'disposableEmail'>,
): Promise<RiskAssessment> {
  const facts = await sendFactsOf(deps, { teamId, context: NO_CONTEXT, risk: riskQuestion(r, now) });
  if (facts === undefined) throw notFound('Team');
  return scoreOf(deps, r, facts.counts, recipientFacts);
}

function baseRow(principal: Principal, r: Recipient, risk: RiskAssessment, now: Date): VerificationRow {
  return {
    id: newId('ver_', now),
    team_id: principal.teamId,
    api_key_id: principal.keyId,
    channel: r.channel,
    to_address: r.to,
    to_prefix: r.toPrefix,
    country: r.country,
    status: 'pending',
    code_hash: null,
    attempts_remaining: ATTEMPTS,
    expires_at: now,
    email_id: null,
    sms_id: null,
    client_ip_hash: r.clientIpHash,
    risk_score: risk.score,
    risk_level: risk.level,
    risk_reasons: risk.reasons,
    reason: null,
    verified_at: null,
    created_at: now,
    updated_at: now,
  };
}

/** HIGH: store the refusal (no code, nothing sent, nothing charged) and answer 422 with its id. */
export async function refuseIfHigh(
  deps: VerifyDeps,
  principal: Principal,
  r: Recipient,
  risk: RiskAssessment,
  now: Date,
): Promise<void> {
  if (risk.level !== 'HIGH') return;
  const row = {
    ...baseRow(principal, r, risk, now),
    status: 'refused' as const,
    attempts_remaining: 0,
    reason: 'refused',
  };
  await insertVerification(deps.db, row);
  throw new ApiError(
    422,
    'RISK_REFUSED',
    `Refused by risk scoring (score ${risk.score}): ${risk.reasons.map((reason) => reason.detail).join('; ')}`,
    { extra: { risk, id: row.id } },
  );
}

/** The limits, then the row of a new pending code (the channel stores it beside its message). */
export async function pendingRow(
  deps: VerifyDeps,
  principal: Principal,
  r: Recipient & { clientIp: string | undefined },
  q: { risk: RiskAssessment; now: Date; code: string; expiresIn: number },
): Promise<VerificationRow> {
  await enforceSendLimits(deps.rateLimiter, deps.secrets, principal.teamId, r);
  const row = baseRow(principal, r, q.risk, q.now);
  row.code_hash = codeHash(deps.secrets, row.id, q.code);
  row.expires_at = new Date(q.now.getTime() + q.expiresIn * 1000);
  return row;
}

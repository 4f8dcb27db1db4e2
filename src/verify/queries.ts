// Every SQL statement of one-time codes, team id first. What the SMS area knows (its messages to a
// country, a code's message delivery) is read through sms/index.ts.
import { randomInt } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { VerificationsTable } from '../db/schema.ts';
import { verifiedDomainId } from '../domains/index.ts';
import { getSmsDelivery, smsSentToCountry } from '../sms/index.ts';

export type VerificationRow = Selectable<VerificationsTable>;

/** A verification with the state of its SMS (null for email). */
export interface VerificationWithDelivery extends VerificationRow {
  sms_status: string | null;
  sms_provider_message_id: string | null;
  sms_reason_message: string | null;
}

export interface SendContext {
  teamName: string;
  /** no-reply@ this one when `from` is absent. */
  firstVerifiedDomain: string | null;
  fromDomainVerified: boolean;
  suppressed: boolean;
  /** The name of the key's domain when the key is limited to one ('' when that domain is gone). */
  keyDomain: string | null;
}

/** What an email code's send asks about its team (SMS codes ask nothing: all null). */
export interface ContextQuestion {
  fromDomain: string | null;
  to: string | null;
  keyDomainId: number | null;
}

export interface RiskCounts {
  toRecipient: number;
  fromClientIp: number;
  toPrefix: number;
  /** True when no country applies (email) or the team has sent an SMS or a code there before. */
  knownCountry: boolean;
  /** The team's recent finished codes (refused ones left out) and how many of them were verified. */
  finished: number;
  verified: number;
}

export interface RiskQuestion {
  to: string;
  clientIpHash: Buffer | null;
  toPrefix: string | null;
  country: string | null;
  since: Date;
  conversionSince: Date;
  /** Codes younger than this are left out: most are still pending, and scanning them costs. */
  conversionUntil: Date;
  conversionSample: number;
  now: Date;
  cap: number;
}

export interface FactsQuestion {
  teamId: number;
  context: ContextQuestion;
  risk: RiskQuestion;
}

export interface SendFacts {
  context: SendContext;
  counts: RiskCounts;
}

interface FactsRow {
  n: number;
  name: string;
  first_domain: string | null;
  from_domain_id: number | null;
  suppressed: boolean;
  key_domain: string | null;
  to_recipient: string;
  from_client_ip: string;
  to_prefix: string;
  known_country: boolean;
  finished: string;
  verified: string;
}

/**
 * For each send, in order (undefined when its team is gone): the team's context (name, first
 * verified domain, the from domain's verification, a suppressed recipient, the key's domain) and the
 * risk signals' counts, in one statement for many sends (the API process coalesces them).
 * Velocity counts include refused requests (an attack that keeps being refused is still an attack)
 * and stop at `cap`, newest first so that they keep to their indexes (as sms/context-queries.ts
 * explains); conversion looks at the latest `conversionSample` finished codes made between
 * `conversionSince` and `conversionUntil`.
 */
export async function readSendFacts(db: Db, questions: readonly FactsQuestion[]): Promise<(SendFacts | undefined)[]> {
  const result = await sendFactsStatement(questions).execute(db);
  const byN = new Map(result.rows.map((row) => [Number(row.n), row]));
  // A country no code went to yet may still be known from the team's SMS (the SMS area's read).
  const knownCountry = await Promise.all(
    questions.map(async ({ teamId, risk }, n) =>
      byN.get(n)?.known_country === false && risk.country !== null
        ? smsSentToCountry(db, teamId, risk.country)
        : byN.get(n)?.known_country === true,
    ),
  );
  return questions.map((question, n) => {
    const row = byN.get(n);
    if (row === undefined) return undefined;
    return {
      context: {
        teamName: row.name,
        firstVerifiedDomain: row.first_domain,
        fromDomainVerified: row.from_domain_id !== null,
        suppressed: row.suppressed,
        keyDomain: question.context.keyDomainId === null ? null : (row.key_domain ?? ''),
      },
      counts: {
        toRecipient: Number(row.to_recipient),
        fromClientIp: Number(row.from_client_ip),
        toPrefix: Number(row.to_prefix),
        knownCountry: knownCountry[n]!,
        finished: Number(row.finished),
        verified: Number(row.verified),
      },
    };
  });
}

/** readSendFacts' statement (tests EXPLAIN it). */
export function sendFactsStatement(questions: readonly FactsQuestion[]) {
  const input = questions.map(({ teamId, context: c, risk: r }, n) => ({
    n,
    team_id: teamId,
    from_domain: c.fromDomain,
    context_to: c.to,
    key_domain_id: c.keyDomainId,
    to_address: r.to,
    client_ip_hash: r.clientIpHash?.toString('hex') ?? null,
    to_prefix: r.toPrefix,
    country: r.country,
    since: r.since.toISOString(),
    conversion_since: r.conversionSince.toISOString(),
    conversion_until: r.conversionUntil.toISOString(),
    conversion_sample: r.conversionSample,
    now: r.now.toISOString(),
    cap: r.cap,
  }));
  return sql<FactsRow>`
    SELECT q.n, t.name,
      (SELECT d.name FROM domains AS d WHERE d.team_id = t.id AND d.deleted_at IS NULL
         AND d.verified_at IS NOT NULL ORDER BY d.id LIMIT 1) AS first_domain,
      ${verifiedDomainId(sql`t.id`, sql`q.from_domain`)} AS from_domain_id,
      EXISTS (SELECT 1 FROM suppressions AS s WHERE s.team_id = t.id AND s.email = q.context_to) AS suppressed,
      (SELECT d.name FROM domains AS d WHERE d.team_id = t.id AND d.id = q.key_domain_id) AS key_domain,
      (SELECT count(*) FROM (SELECT 1 FROM verifications WHERE team_id = q.team_id AND to_address = q.to_address
         AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) r) AS to_recipient,
      (SELECT count(*) FROM (SELECT 1 FROM verifications WHERE team_id = q.team_id
         AND client_ip_hash = decode(q.client_ip_hash, 'hex') AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) i) AS from_client_ip,
      (SELECT count(*) FROM (SELECT 1 FROM verifications WHERE team_id = q.team_id
         AND to_prefix = q.to_prefix AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) p) AS to_prefix,
      (q.country IS NULL
         OR (SELECT true FROM verifications WHERE team_id = q.team_id AND country = q.country
               AND status <> 'refused' ORDER BY created_at LIMIT 1) IS NOT NULL) AS known_country,
      c.finished, c.verified
    FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb) AS q (
      n int, team_id int, from_domain text, context_to text, key_domain_id int, to_address text,
      client_ip_hash text, to_prefix text, country text, since timestamptz, conversion_since timestamptz,
      conversion_until timestamptz, conversion_sample int, now timestamptz, cap int)
    JOIN teams AS t ON t.id = q.team_id
    CROSS JOIN LATERAL (
      SELECT count(*) AS finished, count(*) FILTER (WHERE status = 'verified') AS verified
      FROM (SELECT status FROM verifications WHERE team_id = q.team_id AND status <> 'refused'
              AND created_at > q.conversion_since AND created_at <= q.conversion_until
              AND (status <> 'pending' OR expires_at <= q.now)
            ORDER BY created_at DESC LIMIT q.conversion_sample) recent) AS c
  `;
}

/** Rows each team's monthly code count is spread over (0013_verify.sql). */
const CODE_COUNT_SHARDS = 8;

/** Where a code sent now is counted: its team and its UTC month (the writer picks the shard). */
function codeMonthOf(row: VerificationRow): { teamId: number; month: string } {
  return { teamId: row.team_id, month: `${row.created_at.toISOString().slice(0, 7)}-01` };
}

/**
 * Stores a verification. One with a code (not a refusal) also counts in its team's month
 * (verification_monthly_codes, the usage read's thisMonth.codes), in the same statement.
 */
export async function insertVerification(db: Db, row: VerificationRow): Promise<void> {
  const values = { ...row, risk_reasons: JSON.stringify(row.risk_reasons) };
  if (row.code_hash === null) {
    await db.insertInto('verifications').values(values).execute();
    return;
  }
  const count = { ...codeMonthOf(row), shard: randomInt(CODE_COUNT_SHARDS) };
  await db
    .with('stored', (w) => w.insertInto('verifications').values(values))
    .insertInto('verification_monthly_codes')
    .values({ team_id: count.teamId, month: count.month, shard: count.shard, codes: 1n })
    .onConflict((oc) =>
      oc.columns(['team_id', 'month', 'shard']).doUpdateSet({ codes: sql`verification_monthly_codes.codes + 1` }),
    )
    .execute();
}

export async function getVerification(
  db: Db,
  teamId: number,
  id: string,
): Promise<VerificationWithDelivery | undefined> {
  const row = await getVerificationRow(db, teamId, id);
  if (row === undefined) return undefined;
  const sms = row.sms_id === null ? undefined : await getSmsDelivery(db, teamId, row.sms_id);
  return {
    ...row,
    sms_status: sms?.status ?? null,
    sms_provider_message_id: sms?.provider_message_id ?? null,
    sms_reason_message: sms?.reason_message ?? null,
  };
}

/** The verification row alone (a settled code's check reads it without a lock). */
export async function getVerificationRow(db: Db, teamId: number, id: string): Promise<VerificationRow | undefined> {
  return db
    .selectFrom('verifications')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The verification locked for a check: parallel guesses on one code are taken one at a time. */
export async function getVerificationForUpdate(
  db: Db,
  teamId: number,
  id: string,
): Promise<VerificationRow | undefined> {
  return db
    .selectFrom('verifications')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateAfterCheck(
  db: Db,
  id: string,
  change: Pick<VerificationRow, 'status' | 'attempts_remaining' | 'reason' | 'verified_at' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('verifications').set(change).where('id', '=', id).execute();
}

/** One guess at a code: `blindedGuess` is sha256(guess digest || nonce), `nonce` fresh per guess. */
export interface Guess {
  teamId: number;
  id: string;
  blindedGuess: Buffer;
  nonce: Buffer;
  now: Date;
}

export type GuessOutcome = { row: VerificationRow; matched: boolean } | undefined;

/**
 * Guesses at pending, unexpired codes with attempts left, in one statement under the row locks
 * (parallel guesses at one code take their turns, each seeing the last one's outcome, so no two may
 * share a statement): a right code becomes `verified` and spends no attempt; a wrong one spends an
 * attempt (`failed` at zero). The stored digest is blinded with the guess's nonce in SQL before the
 * comparison (double hashing, as in Double HMAC Verification), so how long the comparison takes
 * says nothing about the stored digest. Answers in the order of `guesses`; undefined where no
 * attempt could be taken.
 */
export async function guessCodes(db: Db, guesses: readonly Guess[]): Promise<GuessOutcome[]> {
  const matched = sql`(sha256(v.code_hash || g.nonce) = g.blinded)`;
  const result = await sql<VerificationRow & { matched: boolean }>`
    UPDATE verifications v SET
      status = CASE WHEN ${matched} THEN 'verified' WHEN v.attempts_remaining = 1 THEN 'failed' ELSE v.status END,
      attempts_remaining = CASE WHEN ${matched} THEN v.attempts_remaining ELSE v.attempts_remaining - 1 END,
      reason = CASE WHEN ${matched} THEN NULL ELSE 'wrong_code' END,
      verified_at = CASE WHEN ${matched} THEN g.now ELSE v.verified_at END,
      updated_at = g.now
    FROM unnest(${guesses.map((q) => q.teamId)}::integer[], ${guesses.map((q) => q.id)}::text[],
      ${guesses.map((q) => q.blindedGuess)}::bytea[], ${guesses.map((q) => q.nonce)}::bytea[],
      ${guesses.map((q) => q.now)}::timestamptz[]) AS g(team_id, id, blinded, nonce, now)
    WHERE v.team_id = g.team_id AND v.id = g.id AND v.status = 'pending' AND v.attempts_remaining > 0
      AND v.expires_at > g.now
    RETURNING v.*, ${matched} AS matched`.execute(db);
  const byId = new Map<string, GuessOutcome>();
  for (const { matched: right, ...row } of result.rows)
    byId.set(row.id, { row: row as VerificationRow, matched: right });
  return guesses.map((q) => byId.get(q.id));
}

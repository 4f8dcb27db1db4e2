// A code send's facts in one statement for many sends: the team's context and the risk counts. The
// other areas' tables are read through the fragments their index.ts exports (accounts, domains,
// feedback), so the read stays one round trip; what the SMS area knows comes through sms/index.ts.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import { teamNameOf } from '../accounts/index.ts';
import { domainNameOf, firstVerifiedDomainName, verifiedDomainId } from '../domains/index.ts';
import { isSuppressed } from '../feedback/index.ts';
import { smsSentToCountry } from '../sms/index.ts';

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

/**
 * readSendFacts' statement (tests EXPLAIN it). As the SMS send's (sms/context-queries.ts), the known
 * country is asked of the window first, and a send without a client IP counts none.
 */
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
      ${firstVerifiedDomainName(sql`q.team_id`)} AS first_domain,
      ${verifiedDomainId(sql`q.team_id`, sql`q.from_domain`)} AS from_domain_id,
      ${isSuppressed(sql`q.team_id`, sql`q.context_to`)} AS suppressed,
      ${domainNameOf(sql`q.team_id`, sql`q.key_domain_id`)} AS key_domain,
      (SELECT count(*) FROM (SELECT 1 FROM verifications WHERE team_id = q.team_id AND to_address = q.to_address
         AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) r) AS to_recipient,
      CASE WHEN q.client_ip_hash IS NOT NULL THEN (SELECT count(*) FROM (SELECT 1 FROM verifications
         WHERE team_id = q.team_id AND client_ip_hash = decode(q.client_ip_hash, 'hex')
           AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) i) ELSE 0 END AS from_client_ip,
      (SELECT count(*) FROM (SELECT 1 FROM verifications WHERE team_id = q.team_id
         AND to_prefix = q.to_prefix AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) p) AS to_prefix,
      (q.country IS NULL
         OR (SELECT true FROM verifications WHERE team_id = q.team_id AND country = q.country
               AND status <> 'refused' AND created_at > q.since
               ORDER BY created_at DESC LIMIT 1) IS NOT NULL
         OR (SELECT true FROM verifications WHERE team_id = q.team_id AND country = q.country
               AND status <> 'refused' ORDER BY created_at LIMIT 1) IS NOT NULL) AS known_country,
      c.finished, c.verified
    FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb) AS q (
      n int, team_id int, from_domain text, context_to text, key_domain_id int, to_address text,
      client_ip_hash text, to_prefix text, country text, since timestamptz, conversion_since timestamptz,
      conversion_until timestamptz, conversion_sample int, now timestamptz, cap int)
    CROSS JOIN LATERAL (SELECT ${teamNameOf(sql`q.team_id`)} AS name) AS t
    CROSS JOIN LATERAL (
      SELECT count(*) AS finished, count(*) FILTER (WHERE status = 'verified') AS verified
      FROM (SELECT status FROM verifications WHERE team_id = q.team_id AND status <> 'refused'
              AND created_at > q.conversion_since AND created_at <= q.conversion_until
              AND (status <> 'pending' OR expires_at <= q.now)
            ORDER BY created_at DESC LIMIT q.conversion_sample) recent) AS c
    WHERE t.name IS NOT NULL
  `;
}

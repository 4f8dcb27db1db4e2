// The SMS area's reads before a send: the team's switch and currency, the risk signals' counts over
// its recent messages, whether it has sent to a country, and its sender IDs there (wallet's fragment).
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/handle.ts';
import { senderIdsJson } from '../wallet/index.ts';

export interface RecentSends {
  toPrefix: number;
  toNumber: number;
  clientIp: number;
  sentToCountry: boolean;
}

/**
 * Whether the team has sent to the country: ordered by created_at, which only the (team_id, country,
 * created_at) index serves without a sort, so the planner does not answer it with a sequential scan
 * when a few teams' messages fill the table (0012_sms.sql).
 */
function sentToCountry(teamId: RawBuilder<unknown>, country: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`((SELECT true FROM sms_messages WHERE team_id = ${teamId} AND country = ${country}
    ORDER BY created_at LIMIT 1) IS NOT NULL)`;
}

/** Whether the team has sent an SMS to the country (one-time codes' known-country signal). */
export async function smsSentToCountry(db: Db, teamId: number, country: string): Promise<boolean> {
  const result = await sql<{
    sent: boolean;
  }>`SELECT ${sentToCountry(sql`${teamId}::integer`, sql`${country}::text`)} AS sent`.execute(db);
  return result.rows[0]?.sent === true;
}

/** What a send must know of its team and its recent messages before it is charged. */
export interface SendContext {
  /** Undefined when the team does not exist. */
  team: { smsEnabled: boolean; currency: string } | undefined;
  recent: RecentSends;
  /** The team's sender IDs for the country (the wallet's: it charges their fees), oldest first. */
  senderIds: string[];
}

/** One send's question to readSendContexts. */
export interface ContextQuery {
  teamId: number;
  country: string;
  toPrefix: string;
  toNumber: string;
  clientIpHash: Buffer | null;
  since: Date;
  cap: number;
}

/**
 * For each send, in order: the team's SMS switch and currency and the risk signals' counts over its
 * recent messages, in one statement for many sends (the API process coalesces them). Each
 * count stops at `cap` (LIMIT), so a pumping burst costs no more to measure than a normal send; its
 * ORDER BY created_at keeps it on its index: without it, when a few teams fill the table, the planner
 * expects `cap` matches early in a sequential scan and reads the whole table when there are few.
 * Whether the team sent to the country is asked of the window first: a team the statistics have not
 * seen yet is planned to have about one row, and its every message to the country is then sorted.
 * A send without a client IP counts none.
 */
export async function readSendContexts(db: Db, queries: readonly ContextQuery[]): Promise<SendContext[]> {
  const result = await sendContextsStatement(queries).execute(db);
  return result.rows.map((row) => ({
    team: row.sms_enabled === null ? undefined : { smsEnabled: row.sms_enabled, currency: row.currency! },
    recent: {
      toPrefix: Number(row.to_prefix),
      toNumber: Number(row.to_number),
      clientIp: Number(row.client_ip),
      sentToCountry: row.sent_to_country,
    },
    senderIds: row.sender_ids ?? [],
  }));
}

/** readSendContexts' statement (tests EXPLAIN it). */
export function sendContextsStatement(queries: readonly ContextQuery[]) {
  const input = queries.map((q, n) => ({
    n,
    team_id: q.teamId,
    country: q.country,
    to_prefix: q.toPrefix,
    to_number: q.toNumber,
    client_ip_hash: q.clientIpHash?.toString('hex') ?? null,
    since: q.since.toISOString(),
    cap: q.cap,
  }));
  return sql<{
    sms_enabled: boolean | null;
    currency: string | null;
    to_prefix: string;
    to_number: string;
    client_ip: string;
    sent_to_country: boolean;
    sender_ids: string[] | null;
  }>`
    SELECT
      t.sms_enabled, t.currency,
      (SELECT count(*) FROM (SELECT 1 FROM sms_messages
         WHERE team_id = q.team_id AND to_prefix = q.to_prefix AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) p) AS to_prefix,
      (SELECT count(*) FROM (SELECT 1 FROM sms_messages
         WHERE team_id = q.team_id AND to_prefix = q.to_prefix AND to_number = q.to_number
           AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) n) AS to_number,
      CASE WHEN q.client_ip_hash IS NOT NULL THEN (SELECT count(*) FROM (SELECT 1 FROM sms_messages
         WHERE team_id = q.team_id AND client_ip_hash = decode(q.client_ip_hash, 'hex')
           AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) i) ELSE 0 END AS client_ip,
      ((SELECT true FROM sms_messages WHERE team_id = q.team_id AND country = q.country AND created_at > q.since
          ORDER BY created_at DESC LIMIT 1) IS NOT NULL
        OR ${sentToCountry(sql`q.team_id`, sql`q.country`)}) AS sent_to_country,
      ${senderIdsJson(sql`q.team_id`, sql`q.country`)} AS sender_ids
    FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
      AS q (n int, team_id int, country text, to_prefix text, to_number text, client_ip_hash text, since timestamptz, cap int)
    LEFT JOIN teams t ON t.id = q.team_id
    ORDER BY q.n
  `;
}

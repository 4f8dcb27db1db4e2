// The statement that stores sends: the emails of one or many sends (each a "job") with their first
// events (the email_events INSERT with its webhook calls, `emailEventsWithCalls` below), recipients, attachments and inline
// Idempotency-Keys. It serves both send paths (send.ts):
// - a one-statement job (`oneStatement` set) was not checked against the database first: the
//   statement itself reads the team's plan, requires every from domain verified and no recipient
//   suppressed (nor, for MARKETING mail, unsubscribed), and reserves the send quota on one usage
//   shard within its cap (limits.ts). Otherwise it stores nothing of that job and its caller takes
//   the transaction send. Concurrent one-statement sends of the process share one statement (the
//   coalescer in send.ts): one round trip and one commit for many requests.
// - a job without it (queue-emails.ts) was checked and reserved under the lock in the caller's
//   transaction; the statement only stores it.
//
// Shard rows are locked in (team, day, shard) order before they are updated, the order the locked
// reservation uses too, so concurrent statements of several processes cannot deadlock. Within one
// statement all jobs of a team and day reserve on the same shard, summed (UPDATE … FROM applies one
// change per row), and a process's statements take the shards in turn, so two of them in flight
// rarely wait for each other's row.
import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { verifiedDomainId } from '../domains/index.ts';
import { effectivePlanSql } from '../platform/effective-plan.ts';
import { emailEventsWithCalls } from '../webhooks/index.ts';
import { ONE_STATEMENT_DAILY_LIMITS, USAGE_SHARDS } from './limits.ts';
import type { NewEmail } from './queries.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface StoreJob {
  teamId: number;
  /** The time of the request: created_at of its rows. */
  now: Date;
  emails: NewEmail[];
  /**
   * A one-statement send: plan, domains and suppressions were not read first, and nothing is
   * reserved yet. The statement checks them itself: the team's plan gives the daily limit, each
   * email's domain id comes from `fromDomains` (its from domain, lower-cased, in email order) and
   * must be verified, none of `addresses` may be suppressed (nor unsubscribed when `marketing` > 0),
   * and `transactional` + `marketing` recipients must fit in the shard's cap for `day`; otherwise
   * nothing of this send is stored.
   */
  oneStatement?: {
    day: string;
    transactional: number;
    marketing: number;
    fromDomains: string[];
    addresses: string[];
  };
  /**
   * The request's Idempotency-Key, written as a completed entry with the response in the same
   * statement as the emails (platform/idempotency.ts, inline mode): both land or neither does. A key
   * the team already has makes the job store nothing (its caller then claims the key the usual way:
   * replay or 409); a key inserted concurrently by another statement fails this one with a unique
   * violation, and the coalescer retries each job alone.
   */
  idempotency?: CompletedKey;
  /**
   * A row of another area's that must exist exactly when this send's emails do (a one-time code's
   * verification row beside its email): inserted by the same statement when the job is stored.
   */
  companion?: Companion;
}

/** The tables a companion row may go to. */
export type CompanionTable = 'verifications';

export interface Companion {
  table: CompanionTable;
  /** Every column of the table (Buffers for bytea, Dates for timestamps). */
  row: Record<string, unknown>;
  /** A sharded per-team monthly counter the stored row adds one to (a code to the usage read's codes). */
  counter?: CompanionCounter;
}

/** The counters a companion may add to, and the column each counts in. */
const COUNTER_COLUMNS = { verification_monthly_codes: 'codes' } as const;

export interface CompanionCounter {
  table: keyof typeof COUNTER_COLUMNS;
  teamId: number;
  /** UTC month, YYYY-MM-01. */
  month: string;
  /** How many rows the count is spread over; the statement picks one. */
  shards: number;
}

/** The counter shard of the next statement: in turn, so that concurrent statements rarely wait for each other's row. */
let nextCounterTurn = randomInt(1 << 16);

/** A companion row as jsonb_populate_record reads it: bytea as `\\x` hex, the job's index beside it. */
function companionJson(job: number, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { job };
  for (const [column, value] of Object.entries(row)) {
    if (Buffer.isBuffer(value)) out[column] = `\\x${value.toString('hex')}`;
    else if (typeof value === 'bigint') out[column] = value.toString();
    else out[column] = value;
  }
  return out;
}

/** One INSERT per companion table present among the jobs (none: the statement's text is the usual one). */
function companionInserts(jobs: readonly StoreJob[]) {
  const byTable = new Map<CompanionTable, Record<string, unknown>[]>();
  jobs.forEach((job, i) => {
    if (job.companion === undefined) return;
    const rows = byTable.get(job.companion.table) ?? [];
    rows.push(companionJson(i, job.companion.row));
    byTable.set(job.companion.table, rows);
  });
  const inserts = [...byTable].map(
    ([table, rows]) => sql`,
    ${sql.id(`new_${table}`)} AS (
      INSERT INTO ${sql.table(table)}
      -- The record in FROM: SELECT (jsonb_populate_record(…)).* would call the function once per column.
      SELECT r.*
      FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS x (v),
        jsonb_populate_record(NULL::${sql.table(table)}, x.v) AS r
      WHERE (x.v->>'job')::int IN (SELECT job FROM ok)
    )`,
  );
  return [...inserts, ...counterAdds(jobs)];
}

/**
 * One upsert per counter table: one row per (team, month) of the stored jobs, all on the statement's
 * shard, in key order (two statements lock shared rows in the same order, so they cannot deadlock).
 */
function counterAdds(jobs: readonly StoreJob[]) {
  const turn = nextCounterTurn++;
  const byTable = new Map<
    CompanionCounter['table'],
    { job: number; team_id: number; month: string; shard: number }[]
  >();
  jobs.forEach((job, i) => {
    const counter = job.companion?.counter;
    if (counter === undefined) return;
    const rows = byTable.get(counter.table) ?? [];
    rows.push({ job: i, team_id: counter.teamId, month: counter.month, shard: turn % counter.shards });
    byTable.set(counter.table, rows);
  });
  return [...byTable].map(([table, rows]) => {
    const column = sql.id(COUNTER_COLUMNS[table]);
    return sql`,
    ${sql.id(`add_${table}`)} AS (
      INSERT INTO ${sql.table(table)} (team_id, month, shard, ${column})
      SELECT c.team_id, c.month, c.shard, count(*)
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS c (job int, team_id int, month date, shard int)
      WHERE c.job IN (SELECT job FROM ok)
      GROUP BY c.team_id, c.month, c.shard
      ORDER BY c.team_id, c.month, c.shard
      ON CONFLICT (team_id, month, shard) DO UPDATE SET ${column} = ${sql.table(table)}.${column} + EXCLUDED.${column}
    )`;
  });
}

export interface CompletedKey {
  key: string;
  requestHash: string;
  status: number;
  body: string;
  contentType: string;
  expiresAt: Date;
}

const dayKey = (job: StoreJob) => `${job.teamId}:${job.oneStatement?.day ?? ''}`;

/** The shard the next statement of this process reserves on: in turn, so that this process's concurrent statements rarely share one. */
let nextShard = randomInt(USAGE_SHARDS);

/** Shards for the jobs of one statement: one per team and day, so their reservations add up on one row. */
function assignShards(jobs: StoreJob[]): number[] {
  const chosen = new Map<string, number>();
  return jobs.map((job) => {
    if (job.oneStatement === undefined) return 0;
    const key = dayKey(job);
    let shard = chosen.get(key);
    if (shard === undefined) {
      shard = nextShard;
      nextShard = (nextShard + 1) % USAGE_SHARDS;
      chosen.set(key, shard);
    }
    return shard;
  });
}

/** Stores the jobs' emails; for each job, whether it was stored (false: a one-statement job whose checks or shard refused it). */
export async function storeSends(db: Db, jobs: StoreJob[]): Promise<boolean[]> {
  const shards = assignShards(jobs);
  const jobRows = jobs.map((job, i) => ({
    job: i,
    team_id: job.teamId,
    day: job.oneStatement?.day ?? null,
    shard: shards[i],
    t: job.oneStatement?.transactional ?? 0,
    m: job.oneStatement?.marketing ?? 0,
    one: job.oneStatement !== undefined,
    addresses: job.oneStatement?.addresses ?? [],
    from_domains: job.oneStatement?.fromDomains ?? [],
    idem_key: job.idempotency?.key ?? null,
  }));
  const keys = jobs.flatMap((job, i) => {
    const entry = job.idempotency;
    if (entry === undefined) return [];
    return [
      {
        job: i,
        team_id: job.teamId,
        key: entry.key,
        request_hash: entry.requestHash,
        response_status: entry.status,
        response_body: entry.body,
        content_type: entry.contentType,
        created_at: job.now,
        expires_at: entry.expiresAt,
      },
    ];
  });
  const emails = jobs.flatMap((job, i) =>
    job.emails.map((e, n) => ({
      job: i,
      from_domain: job.oneStatement?.fromDomains[n] ?? null,
      id: e.id,
      team_id: job.teamId,
      domain_id: job.oneStatement ? null : e.domainId,
      api_key_id: e.apiKeyId,
      from: e.from,
      to: e.to,
      cc: e.cc,
      bcc: e.bcc,
      reply_to: e.replyTo,
      subject: e.subject,
      html: e.html,
      text: e.text,
      headers: e.headers,
      template_id: e.templateId,
      in_reply_to_id: e.inReplyToId,
      type: e.type,
      scheduled_at: e.scheduledAt,
      status: e.status,
      run_at: e.runAt,
      created_at: job.now,
      updated_at: job.now,
    })),
  );
  const events = jobs.flatMap((job, i) =>
    job.emails.flatMap((e) =>
      e.events.map((event) => ({
        job: i,
        team_id: job.teamId,
        email_id: e.id,
        status: event.status,
        data: event.data ?? null,
        created_at: job.now,
      })),
    ),
  );
  const recipients = jobs.flatMap((job, i) =>
    job.emails.flatMap((e) =>
      e.recipients.map((address) => ({ job: i, team_id: job.teamId, email_id: e.id, address })),
    ),
  );
  const attachments = jobs.flatMap((job, i) =>
    job.emails.flatMap((e) =>
      e.attachments.map((a, position) => ({
        job: i,
        email_id: e.id,
        position,
        filename: a.filename,
        hex: a.content.toString('hex'),
      })),
    ),
  );
  // The text never varies (arrays travel as JSON), so the statement is prepared once per connection.
  const result = await sql<{ job: number }>`
    WITH jobs AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(jobRows)}::jsonb)
        AS j (job int, team_id int, day date, shard int, t int, m int, one boolean, addresses text[], from_domains text[], idem_key text)
    ),
    -- One-statement jobs: the plan's daily limit, no suppressed (for MARKETING, no unsubscribed)
    -- recipient, every from domain verified. A job with an Idempotency-Key the team already has stores nothing.
    checked AS (
      SELECT j.job, (${JSON.stringify(ONE_STATEMENT_DAILY_LIMITS)}::jsonb ->> ${effectivePlanSql('t')})::int AS day_limit
      FROM jobs j JOIN teams t ON t.id = j.team_id
      WHERE (j.idem_key IS NULL OR NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.team_id = j.team_id AND k.key = j.idem_key))
        AND (NOT j.one OR (
          NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.team_id = j.team_id AND s.email = ANY(j.addresses))
          AND (j.m = 0 OR NOT EXISTS (SELECT 1 FROM unsubscribes s WHERE s.team_id = j.team_id AND s.email = ANY(j.addresses)))
          AND NOT EXISTS (SELECT 1 FROM unnest(j.from_domains) AS f (name) WHERE ${verifiedDomainId(sql`j.team_id`, sql`f.name`)} IS NULL)))
    ),
    locked AS (
      SELECT u.team_id FROM team_daily_usage u
      JOIN jobs j ON u.team_id = j.team_id AND u.day = j.day AND u.shard = j.shard AND j.one
      ORDER BY u.team_id, u.day, u.shard
      FOR UPDATE OF u
    ),
    -- What the checked jobs add to each shard row (one row per team and day in a statement).
    sums AS (
      SELECT j.team_id, j.day, j.shard, c.day_limit, sum(j.t) AS t, sum(j.m) AS m
      FROM jobs j JOIN checked c ON c.job = j.job
      WHERE j.one
      GROUP BY j.team_id, j.day, j.shard, c.day_limit
    ),
    -- All of a row's jobs fit under its cap, or none of them is stored (they take the transaction send).
    -- A row whose caps were shared out for another daily limit (the plan changed) refuses.
    reserved AS (
      UPDATE team_daily_usage u SET transactional = u.transactional + s.t, marketing = u.marketing + s.m
      FROM sums s
      WHERE (SELECT count(*) FROM locked) >= 0
        AND u.team_id = s.team_id AND u.day = s.day AND u.shard = s.shard AND u.day_limit = s.day_limit
        AND u.transactional + u.marketing + s.t + s.m <= u.cap
      RETURNING u.team_id, u.day, u.shard, u.day_limit
    ),
    ok AS (
      SELECT j.job FROM jobs j JOIN checked c ON c.job = j.job
      JOIN reserved r ON r.team_id = j.team_id AND r.day = j.day AND r.shard = j.shard AND r.day_limit = c.day_limit
      WHERE j.one
      UNION ALL SELECT job FROM jobs WHERE NOT one AND job IN (SELECT job FROM checked)
    ),
    new_emails AS (
      INSERT INTO emails (id, team_id, domain_id, api_key_id, "from", "to", cc, bcc, reply_to, subject, html, text, headers,
                          template_id, in_reply_to_id, type, scheduled_at, status, run_at, created_at, updated_at)
      SELECT e.id, e.team_id, COALESCE(e.domain_id, ${verifiedDomainId(sql`e.team_id`, sql`x.v->>'from_domain'`)}), e.api_key_id, e."from", e."to", e.cc, e.bcc, e.reply_to, e.subject, e.html, e.text, e.headers,
             e.template_id, e.in_reply_to_id, e.type, e.scheduled_at, e.status, e.run_at, e.created_at, e.updated_at
      FROM jsonb_array_elements(${JSON.stringify(emails)}::jsonb) AS x (v), jsonb_populate_record(NULL::emails, x.v) AS e
      WHERE (x.v->>'job')::int IN (SELECT job FROM ok)
      RETURNING id, domain_id, "from", "to", subject, created_at
    ),
    ${emailEventsWithCalls(
      sql`
      INSERT INTO email_events (team_id, email_id, status, data, created_at)
      SELECT e.team_id, e.email_id, e.status, e.data, e.created_at
      FROM jsonb_array_elements(${JSON.stringify(events)}::jsonb) WITH ORDINALITY AS x (v, ord), jsonb_populate_record(NULL::email_events, x.v) AS e
      WHERE (x.v->>'job')::int IN (SELECT job FROM ok)
      ORDER BY x.ord`,
      { emailsFrom: 'new_emails' },
    )},
    new_recipients AS (
      INSERT INTO email_recipients (team_id, address, email_id)
      SELECT r.team_id, r.address, r.email_id
      FROM jsonb_to_recordset(${JSON.stringify(recipients)}::jsonb) AS r (job int, team_id int, email_id text, address text)
      WHERE r.job IN (SELECT job FROM ok)
    ),
    new_attachments AS (
      INSERT INTO email_attachments (email_id, position, filename, content)
      SELECT a.email_id, a.position, a.filename, decode(a.hex, 'hex')
      FROM jsonb_to_recordset(${JSON.stringify(attachments)}::jsonb) AS a (job int, email_id text, position int, filename text, hex text)
      WHERE a.job IN (SELECT job FROM ok)
    ),
    -- No ON CONFLICT: a key inserted meanwhile by another statement must fail this one whole.
    new_keys AS (
      INSERT INTO idempotency_keys (team_id, key, request_hash, state, response_status, response_body, content_type, locked_until, created_at, expires_at)
      SELECT k.team_id, k.key, k.request_hash, 'completed', k.response_status, k.response_body, k.content_type, k.created_at, k.created_at, k.expires_at
      FROM jsonb_to_recordset(${JSON.stringify(keys)}::jsonb)
        AS k (job int, team_id int, key text, request_hash text, response_status int, response_body text, content_type text, created_at timestamptz, expires_at timestamptz)
      WHERE k.job IN (SELECT job FROM ok)
    )${sql.join(companionInserts(jobs), sql``)}
    SELECT job FROM ok`.execute(db);
  const stored = new Set(result.rows.map((row) => Number(row.job)));
  return jobs.map((_, i) => stored.has(i));
}

// Every SQL statement of recording opens (email-opens.ts, first-opens.ts): the tallies in
// email_opens, the emails locked for first opens, the first opens' status moves and OPENED events.
// Rows are found by email id: a token names its email, and the team was checked by the first open
// (lockEmailsOfOpens), so these statements span teams and say so.
import { sql, type Kysely } from 'kysely';
import type { Database, EmailStatus } from '../db/schema.ts';
import { recordedEventsCtes } from './event-queries.ts';
import type { EmailOfEvent } from './views.ts';

export const LATER_OPENS_KEPT = 10;
/** email_opens.recent_at keeps one more: the first open, until LATER_OPENS_KEPT later ones push it out. */
const RECENT_KEPT = LATER_OPENS_KEPT + 1;
/** How far a later open must be past the copy's last move of address activity to move it again. */
const ACTIVITY_STEP = '1 hour';

/** Columns for unnest(): one array per field, the same text for every batch size (prepared once). */
export interface OpenColumns {
  emailIds: string[];
  keys: string[];
  ats: string[];
  userAgents: (string | null)[];
}

/**
 * What an open does to a copy's tally row that exists (ON CONFLICT ... DO UPDATE SET): counted, the
 * latest RECENT_KEPT opens kept, and activity_at moved when more than ACTIVITY_STEP past (to the
 * copy's new last open, so that RETURNING can tell: activity_at = last_opened_at).
 */
const laterOpenUpdate = sql`
  open_count = o.open_count + 1,
  last_opened_at = greatest(o.last_opened_at, excluded.last_opened_at),
  recent_at = (o.recent_at || excluded.recent_at)[greatest(1, cardinality(o.recent_at) + 2 - ${sql.lit(RECENT_KEPT)}):],
  recent_user_agents = (o.recent_user_agents || excluded.recent_user_agents)[greatest(1, cardinality(o.recent_user_agents) + 2 - ${sql.lit(RECENT_KEPT)}):],
  activity_at = CASE WHEN o.activity_at < excluded.activity_at - interval '${sql.raw(ACTIVITY_STEP)}'
                     THEN greatest(o.last_opened_at, excluded.last_opened_at) ELSE o.activity_at END`;

/**
 * A later open that moved its copy's activity_at moves the address activity of every recipient of
 * the email (as the insert trigger does for first opens): at most hourly per copy, so the lock ON
 * CONFLICT takes even when its WHERE declines costs little. `tally` is the statement's CTE of
 * upserted copies.
 */
const laterOpenActivity = sql`
  INSERT INTO address_activity AS a (team_id, address, last_opened_at)
  SELECT r.team_id, r.address, max(t.last_opened_at)
  FROM tally t JOIN email_recipients r ON r.email_id = t.email_id
  WHERE t.moved AND NOT t.inserted AND r.email_id = ANY(ARRAY(SELECT m.email_id FROM tally m WHERE m.moved AND NOT m.inserted))
  GROUP BY r.team_id, r.address
  ORDER BY r.team_id, r.address
  ON CONFLICT (team_id, address) DO UPDATE SET last_opened_at = excluded.last_opened_at
  WHERE a.last_opened_at IS NULL OR a.last_opened_at < excluded.last_opened_at`;

/**
 * Counts one round of opens (at most one per copy) on the tallies of copies opened before, in
 * (email, key) order; answers the copies counted. Over many teams' emails (by id; see the header).
 * Every join in it is between the input and a table's index: the planner sees an unnest() of
 * parameters, and a CTE reading another, as about ten rows, so a join of two CTEs can become a
 * nested loop over both (700 opens made 490,000 comparisons, 45 ms, measured).
 */
export async function recordLaterOpenTallies(
  db: Kysely<Database>,
  c: OpenColumns,
): Promise<{ email_id: string; open_key: string }[]> {
  const { rows } = await sql<{ email_id: string; open_key: string }>`
    WITH tally AS (
      INSERT INTO email_opens AS o (email_id, open_key, open_count, last_opened_at, activity_at, recent_at, recent_user_agents)
      SELECT i.email_id, i.open_key, 1, i.at, i.at, ARRAY[i.at], ARRAY[i.user_agent]
      FROM unnest(${c.emailIds}::text[], ${c.keys}::text[], ${c.ats}::timestamptz[], ${c.userAgents}::text[]) AS i(email_id, open_key, at, user_agent)
      -- Only copies opened before: a first open locks its email first (recordFirstOpens). A scalar
      -- subquery, so a primary-key probe per open: as EXISTS, with statistics taken while the table
      -- was empty, the planner walked the whole index for each batch (11 s, measured).
      WHERE (SELECT true FROM email_opens k WHERE k.email_id = i.email_id AND k.open_key = i.open_key)
      ORDER BY i.email_id, i.open_key
      ON CONFLICT (email_id, open_key) DO UPDATE SET ${laterOpenUpdate}
      -- A count of 1 is a row this statement inserted (an update makes it 2 or more): here only when
      -- the copy's row went between the probe and the upsert (its email deleted). Not xmax = 0, which
      -- a partitioned table does not return from an upsert.
      RETURNING o.email_id, o.open_key, (o.open_count = 1) AS inserted, o.activity_at = o.last_opened_at AS moved, o.last_opened_at
    ),
    activity AS (${laterOpenActivity})
    SELECT t.email_id, t.open_key FROM tally t`.execute(db);
  return rows;
}

/**
 * Locks the emails of first opens FOR UPDATE in id order (as recordEmailEvents locks them); answers
 * those found with their (id, team) pair, as their events' payloads show them. Over many teams:
 * each id is paired with its team.
 */
export async function lockEmailsOfOpens(tx: Kysely<Database>, ids: string[], teams: number[]): Promise<EmailOfEvent[]> {
  const { rows } = await sql<EmailOfEvent>`
      SELECT m.id, m.team_id, m.domain_id, m.campaign_id, m."from", m."to", m.subject, m.created_at FROM emails m
      WHERE m.id = ANY(${ids}::text[]) AND (m.id, m.team_id) IN (SELECT * FROM unnest(${ids}::text[], ${teams}::int[]))
      ORDER BY m.id FOR UPDATE OF m`.execute(tx);
  return rows;
}

/**
 * One round of first opens (one per copy; the emails locked): the tallies upserted, and for each
 * row this statement inserted the email's status moved (from `replaceable`) and the copy's OPENED
 * event inserted with its webhook calls, whose bodies `calls` holds by copy (`${emailId}\n${openKey}`;
 * views.ts emailEventCall). Over many teams' emails, by id (the team comes from the email row).
 */
export async function recordFirstOpenTallies(
  tx: Kysely<Database>,
  c: OpenColumns,
  replaceableStatuses: readonly EmailStatus[],
  calls: Record<string, string>,
): Promise<void> {
  const replaceable = sql.join(replaceableStatuses);
  await sql`
    WITH calls AS (SELECT ${JSON.stringify(calls)}::jsonb AS calls),
    tally AS (
      INSERT INTO email_opens AS o (email_id, open_key, open_count, last_opened_at, activity_at, recent_at, recent_user_agents)
      SELECT i.email_id, i.open_key, 1, i.at, i.at, ARRAY[i.at], ARRAY[i.user_agent]
      FROM unnest(${c.emailIds}::text[], ${c.keys}::text[], ${c.ats}::timestamptz[], ${c.userAgents}::text[]) AS i(email_id, open_key, at, user_agent)
      ORDER BY i.email_id, i.open_key
      ON CONFLICT (email_id, open_key) DO UPDATE SET ${laterOpenUpdate}
      -- A count of 1 is a row this statement inserted (an update makes it 2 or more; not xmax = 0,
      -- which a partitioned table does not return from an upsert); record-opens.test.ts holds this.
      RETURNING o.email_id, o.open_key, (o.open_count = 1) AS inserted, o.activity_at = o.last_opened_at AS moved, o.last_opened_at,
        o.recent_user_agents[cardinality(o.recent_user_agents)] AS user_agent
    ),
    status AS (
      UPDATE emails m SET status = 'OPENED', updated_at = f.at
      FROM (SELECT t.email_id, min(t.last_opened_at) AS at FROM tally t WHERE t.inserted GROUP BY t.email_id) f
      WHERE m.id = f.email_id AND m.status IN (${replaceable}) AND m.id = ANY(ARRAY(SELECT i.email_id FROM tally i WHERE i.inserted))
    ),
    activity AS (${laterOpenActivity}),
    -- Each join is between the statement's rows and a table's index, found by = ANY(ARRAY(...))
    -- whatever the statistics say (see recordLaterOpens); each body is a key lookup in the one
    -- parameter, read once (a scalar subquery), not a join of two CTEs.
    recorded AS (
      SELECT row_number() OVER (ORDER BY t.email_id, t.open_key) AS n, m.team_id, t.email_id, 'OPENED' AS status,
        CASE WHEN t.open_key = '' THEN jsonb_build_object('userAgent', t.user_agent)
             ELSE jsonb_build_object('recipient', t.open_key, 'userAgent', t.user_agent) END AS data,
        t.open_key, t.last_opened_at AS at, m.domain_id, 'email.opened' AS type,
        (SELECT p.calls FROM calls p) ->> (t.email_id || E'\n' || t.open_key) AS payload
      FROM tally t JOIN emails m ON m.id = t.email_id
      WHERE t.inserted AND m.id = ANY(ARRAY(SELECT f.email_id FROM tally f WHERE f.inserted))
    ),
    ${recordedEventsCtes('recorded')}
    SELECT 1`.execute(tx);
}

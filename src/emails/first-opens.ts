// First opens (email-opens.ts has the rest of the opens): the opens whose copy had no tally when
// recordLaterOpens looked. In one transaction: their emails locked in id order (as recordEmailEvents
// locks them), then per round their tallies upserted in (email, key) order: a row this statement
// inserted is the copy's first open, which moves the email's status as status-precedence.ts allows
// and inserts the copy's one OPENED event; a row another batch inserted meanwhile takes the open as
// a later one.
//
// Lock order, the same in every transaction that takes these locks: email rows, then tally rows.
// A later open takes only its tally row (and no email lock after it), so the two kinds cannot
// deadlock, nor can two batches of first opens. Locking the email first matters: inserting a tally
// row checks its foreign key with a KEY SHARE lock on the email, and two batches that had each
// inserted a copy of one MARKETING email and then asked for the email's FOR UPDATE lock would wait
// on each other. It also makes the event's insert triggers ("first open of the email", the daily
// counters) see every earlier open of the email.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { emailEventsWithCalls } from '../webhooks/index.ts';
import { replaceableByEvent } from './email-events.ts';
import { laterOpenActivity, laterOpenUpdate, openColumns, roundsOf, type OpenInput } from './email-opens.ts';

/** Records first opens (any number per copy: the rest count as later opens). Opens of emails the team does not have are dropped. */
export async function recordFirstOpens(db: Kysely<Database>, opens: readonly OpenInput[]): Promise<void> {
  if (opens.length === 0) return;
  await db.transaction().execute(async (tx) => {
    const teamOf = new Map(opens.map((o) => [o.emailId, o.teamId]));
    const ids = [...teamOf.keys()];
    const teams = ids.map((id) => teamOf.get(id)!);
    const { rows } = await sql<{ id: string }>`
      SELECT m.id FROM emails m
      WHERE m.id = ANY(${ids}::text[]) AND (m.id, m.team_id) IN (SELECT * FROM unnest(${ids}::text[], ${teams}::int[]))
      ORDER BY m.id FOR UPDATE OF m`.execute(tx);
    const found = new Set(rows.map((row) => row.id));
    // The token is ours, but its email may be gone since, and must be the team's.
    const kept = found.size === ids.length ? opens : opens.filter((o) => found.has(o.emailId));
    for (const round of roundsOf(kept)) await recordRound(tx, round);
  });
}

/** One open per copy; the emails are locked. */
async function recordRound(tx: Kysely<Database>, opens: readonly OpenInput[]): Promise<void> {
  const c = openColumns(opens);
  const replaceable = sql.join(replaceableByEvent('OPENED'));
  await sql`
    WITH tally AS (
      INSERT INTO email_opens AS o (email_id, open_key, open_count, last_opened_at, activity_at, recent_at, recent_user_agents)
      SELECT i.email_id, i.open_key, 1, i.at, i.at, ARRAY[i.at], ARRAY[i.user_agent]
      FROM unnest(${c.emailIds}::text[], ${c.keys}::text[], ${c.ats}::timestamptz[], ${c.userAgents}::text[]) AS i(email_id, open_key, at, user_agent)
      ORDER BY i.email_id, i.open_key
      ON CONFLICT (email_id, open_key) DO UPDATE SET ${laterOpenUpdate}
      -- xmax is 0 only on a row this statement inserted (an updated row carries its lock); the
      -- tests of record-opens.test.ts hold this on PostgreSQL and PGlite.
      RETURNING o.email_id, o.open_key, (o.xmax = 0) AS inserted, o.activity_at = o.last_opened_at AS moved, o.last_opened_at,
        o.recent_user_agents[cardinality(o.recent_user_agents)] AS user_agent
    ),
    status AS (
      UPDATE emails m SET status = 'OPENED', updated_at = f.at
      FROM (SELECT t.email_id, min(t.last_opened_at) AS at FROM tally t WHERE t.inserted GROUP BY t.email_id) f
      WHERE m.id = f.email_id AND m.status IN (${replaceable}) AND m.id = ANY(ARRAY(SELECT i.email_id FROM tally i WHERE i.inserted))
    ),
    activity AS (${laterOpenActivity}),
    -- Each join is between the statement's rows and a table's index, found by = ANY(ARRAY(...))
    -- whatever the statistics say (see recordLaterOpens).
    ${emailEventsWithCalls(sql`
      INSERT INTO email_events (team_id, email_id, status, data, open_key, created_at)
      SELECT m.team_id, t.email_id, 'OPENED',
        CASE WHEN t.open_key = '' THEN jsonb_build_object('userAgent', t.user_agent)
             ELSE jsonb_build_object('recipient', t.open_key, 'userAgent', t.user_agent) END,
        t.open_key, t.last_opened_at
      FROM tally t JOIN emails m ON m.id = t.email_id
      WHERE t.inserted AND m.id = ANY(ARRAY(SELECT f.email_id FROM tally f WHERE f.inserted))
      ORDER BY t.email_id, t.open_key`)}
    SELECT 1`.execute(tx);
}

// Recording opens (the tracking pixel): ONE OPENED event per tracked copy, and its tally in
// email_opens (migration 0018). A copy is named by open_key: '' for an email, the recipient for a
// MARKETING copy. The first open inserts the event with recordEmailEvent's rules (it joins the
// history, the status moves only as status-precedence.ts allows and never out of QUEUED or
// SCHEDULED, the insert triggers fire: webhook email.opened, the daily counters, address activity)
// and its data is that open's {recipient?, userAgent}. Each later open only updates the tally, which
// reads of the event (queries.ts listEmailEvents) merge into its data:
//
//   openCount     every open, the first included
//   lastOpenedAt  the latest open's time (the event's createdAt is the first's)
//   laterOpens    [{at, userAgent}], the latest LATER_OPENS_KEPT later opens, oldest first
//
// The list is capped so a proxy or bot fetching a pixel in a loop cannot grow a row without bound;
// the count stays exact. A later open also moves the recipients' address_activity.last_opened_at
// (segments' "opened in the last N days"), which the insert trigger does for first opens, when it is
// more than ACTIVITY_STEP past the recorded time.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { replaceableByEvent } from './email-events.ts';

export const LATER_OPENS_KEPT = 10;
/** email_opens.recent_opens keeps one more: the first open, until LATER_OPENS_KEPT later ones push it out. */
const RECENT_KEPT = LATER_OPENS_KEPT + 1;
/** How far a later open must be past an address's recorded last open to move it (see below). */
const ACTIVITY_STEP = '1 hour';

export interface RecentOpen {
  at: string;
  userAgent: string | null;
}

/** What a read of an OPENED event adds to its data from the copy's tally (email_opens). */
export interface OpenTally {
  openCount: number;
  lastOpenedAt: string;
  laterOpens: RecentOpen[];
}

export function openTally(row: { open_count: number; last_opened_at: Date | string; recent_opens: RecentOpen[] }): OpenTally {
  const later = Math.min(row.open_count - 1, LATER_OPENS_KEPT);
  return {
    openCount: row.open_count,
    lastOpenedAt: new Date(row.last_opened_at).toISOString(),
    laterOpens: later === 0 ? [] : row.recent_opens.slice(-later),
  };
}

export interface OpenInput {
  teamId: number;
  emailId: string;
  /** The MARKETING copy's recipient, or null for the email. */
  recipient: string | null;
  userAgent: string | null;
  at: Date;
}

interface Copy {
  team_id: number;
  email_id: string;
  open_key: string;
  /** The copy's first open in this batch: its time and the event data it gets if it is the first ever. */
  at: string;
  data: { recipient?: string; userAgent: string | null };
  /** Opens in this batch. */
  opens: number;
  last_at: string;
  /** This batch's opens, the latest RECENT_KEPT of them. */
  recent: RecentOpen[];
}

/** The opens of one batch, one row per copy (ON CONFLICT may touch a row once per statement), in
 * (email, key) order: rows are locked in this order, the same in every batch. */
function copiesOf(opens: readonly OpenInput[]): Copy[] {
  const copies = new Map<string, Copy>();
  for (const open of opens) {
    const key = open.recipient ?? '';
    const at = open.at.toISOString();
    const id = `${open.emailId}\n${key}`;
    const copy = copies.get(id);
    if (copy === undefined) {
      const data = open.recipient === null ? { userAgent: open.userAgent } : { recipient: open.recipient, userAgent: open.userAgent };
      copies.set(id, { team_id: open.teamId, email_id: open.emailId, open_key: key, at, data, opens: 1, last_at: at, recent: [{ at, userAgent: open.userAgent }] });
    } else {
      copy.opens += 1;
      if (at > copy.last_at) copy.last_at = at;
      copy.recent.push({ at, userAgent: open.userAgent });
    }
  }
  for (const copy of copies.values()) copy.recent = copy.recent.slice(-RECENT_KEPT);
  return [...copies.values()].sort((a, b) => (a.email_id < b.email_id ? -1 : a.email_id > b.email_id ? 1 : a.open_key < b.open_key ? -1 : a.open_key > b.open_key ? 1 : 0));
}

/**
 * Records a batch of opens in ONE statement; any number of opens per email. Email rows are locked in
 * id order first (as recordEmailEvents does, so the two cannot deadlock, and the insert triggers'
 * "first open of the email" sees every earlier open). Opens of emails the team does not have are
 * dropped. A copy's opens within the batch are merged: the first of them is its first open when the
 * copy has no event yet, otherwise all of them are later opens.
 */
export async function recordOpens(db: Kysely<Database> | Transaction<Database>, opens: readonly OpenInput[]): Promise<void> {
  if (opens.length === 0) return;
  const copies = copiesOf(opens);
  const replaceable = sql.join(replaceableByEvent('OPENED'));
  await sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(copies)}::jsonb)
        AS i(team_id int, email_id text, open_key text, at timestamptz, data jsonb, opens int, last_at timestamptz, recent jsonb)
    ),
    -- Rows found by their ids (= ANY(ARRAY(...)): an index scan whatever the statistics say). Every
    -- join below takes an input row only with its email's team.
    email AS (
      SELECT m.id, m.team_id, m.status FROM emails m
      WHERE m.id = ANY(ARRAY(SELECT i.email_id FROM input i))
      ORDER BY m.id FOR UPDATE OF m
    ),
    moved AS (
      UPDATE emails m SET status = 'OPENED', updated_at = first.at
      FROM (SELECT i.email_id, min(i.at) AS at FROM input i JOIN email e ON e.id = i.email_id AND e.team_id = i.team_id WHERE e.status IN (${replaceable}) GROUP BY i.email_id) first
      WHERE m.id = ANY(ARRAY(SELECT e.id FROM email e WHERE e.status IN (${replaceable})))
        AND m.id = first.email_id AND m.status IN (${replaceable})
    ),
    tally AS (
      INSERT INTO email_opens AS o (email_id, open_key, open_count, last_opened_at, recent_opens)
      SELECT i.email_id, i.open_key, i.opens, i.last_at, i.recent FROM input i JOIN email e ON e.id = i.email_id AND e.team_id = i.team_id
      ORDER BY i.email_id, i.open_key
      ON CONFLICT (email_id, open_key) DO UPDATE SET
        open_count = o.open_count + excluded.open_count,
        last_opened_at = greatest(o.last_opened_at, excluded.last_opened_at),
        recent_opens = jsonb_path_query_array(o.recent_opens || excluded.recent_opens, ${`$[last - ${RECENT_KEPT - 1} to last]`}::jsonpath)
      -- xmax is 0 only on a row this statement inserted (an updated row carries its lock); the
      -- tests of record-opens.test.ts hold this on PostgreSQL and PGlite.
      RETURNING o.email_id, o.open_key, (o.xmax = 0) AS inserted
    ),
    opened AS (
      INSERT INTO email_events (team_id, email_id, status, data, open_key, created_at)
      SELECT i.team_id, i.email_id, 'OPENED', i.data, i.open_key, i.at
      FROM input i JOIN tally t ON t.email_id = i.email_id AND t.open_key = i.open_key AND t.inserted
      ORDER BY i.email_id, i.open_key
    )
    -- Later opens move address activity here; first opens also through the insert trigger (its
    -- guard makes the second write a no-op). Every recipient of the email moves, as in the trigger.
    -- To the hour: an open within ACTIVITY_STEP of the recorded one leaves the row alone (and
    -- unlocked: ON CONFLICT would lock it even when its WHERE declines), since rewriting it means new
    -- entries in its indexes, once per open of a burst (image proxies, previews, a reader
    -- reopening), while segments ask in whole days.
    INSERT INTO address_activity AS a (team_id, address, last_opened_at)
    SELECT r.team_id, r.address, max(i.last_at)
    FROM input i JOIN email e ON e.id = i.email_id AND e.team_id = i.team_id JOIN email_recipients r ON r.team_id = i.team_id AND r.email_id = i.email_id
    -- The probe goes by primary key: coalesce() keeps the planner off address_activity_opened, whose
    -- (team, time) range holds every address of the team opened since, walked for each probe (it
    -- chose that index whenever its statistics predated the opens: 80 µs a probe at 1,000 addresses).
    WHERE NOT EXISTS (
        SELECT 1 FROM address_activity k
        WHERE k.team_id = r.team_id AND k.address = r.address AND coalesce(k.last_opened_at, '-infinity') >= i.last_at - ${ACTIVITY_STEP}::interval)
    GROUP BY r.team_id, r.address
    ORDER BY r.team_id, r.address
    ON CONFLICT (team_id, address) DO UPDATE SET last_opened_at = excluded.last_opened_at
    WHERE a.last_opened_at IS NULL OR a.last_opened_at < excluded.last_opened_at - ${ACTIVITY_STEP}::interval`.execute(db);
}

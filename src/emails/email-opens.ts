// Recording opens (the tracking pixel): ONE OPENED event per tracked copy, and its tally in
// email_opens (migrations 0018, 0020). A copy is named by open_key: '' for an email, the recipient
// for a MARKETING copy. The first open inserts the event with recordEmailEvent's rules (it joins the
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
// more than ACTIVITY_STEP past the copy's last move (email_opens.activity_at).
//
// Why a later open touches nothing but its tally row (migration 0020): later opens are most of the
// pixel's traffic (readers reopening, image proxies, previews), and each is one narrow HOT update,
// about 7 µs of PostgreSQL CPU in a batch, where locking the email, rewriting a jsonb list and
// probing address activity for every open cost about 20 µs (bench/RESULTS.md, tracking-open). So
// only a copy's first open moves the email's status: an open that arrives while the email is still
// QUEUED or SCHEDULED (another recipient awaiting a retry) joins the history without moving it, and
// the copy's later opens do not move it afterwards either.
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

/** The tally's columns as read (a timestamp array element may come as a Date or as text). */
export interface OpenTallyRow {
  open_count: number;
  last_opened_at: Date | string;
  recent_at: (Date | string)[];
  recent_user_agents: (string | null)[];
}

export function openTally(row: OpenTallyRow): OpenTally {
  const later = Math.min(row.open_count - 1, LATER_OPENS_KEPT, row.recent_at.length);
  const from = row.recent_at.length - later;
  return {
    openCount: row.open_count,
    lastOpenedAt: new Date(row.last_opened_at).toISOString(),
    laterOpens: row.recent_at.slice(from).map((at, i) => ({ at: new Date(at).toISOString(), userAgent: row.recent_user_agents[from + i] ?? null })),
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

/**
 * The batch as rounds holding at most one open per copy (ON CONFLICT may touch a row once per
 * statement), in arrival order: round k has the k-th open of each copy. Usually one round.
 */
function roundsOf(opens: readonly OpenInput[]): OpenInput[][] {
  const rounds: OpenInput[][] = [];
  const seen = new Map<string, number>();
  for (const open of opens) {
    const copy = `${open.emailId}\n${open.recipient ?? ''}`;
    const round = seen.get(copy) ?? 0;
    seen.set(copy, round + 1);
    (rounds[round] ??= []).push(open);
  }
  return rounds;
}

/**
 * Records a batch of opens; any number of opens per copy. Opens of emails the team does not have
 * are dropped. In ONE transaction: per round (see roundsOf), the tallies' statement, then, when it
 * found first opens, the statements that lock their emails and insert their events.
 */
export async function recordOpens(db: Kysely<Database> | Transaction<Database>, opens: readonly OpenInput[]): Promise<void> {
  if (opens.length === 0) return;
  const rounds = roundsOf(opens);
  const all = async (tx: Kysely<Database> | Transaction<Database>) => {
    for (const round of rounds) {
      const firsts = await updateTallies(tx, round);
      if (firsts.length > 0) await recordFirstOpens(tx, firsts);
    }
  };
  if (db.isTransaction) return all(db);
  await db.transaction().execute(all);
}

const copyOf = (emailId: string, openKey: string) => `${emailId}\n${openKey}`;

/** Columns for unnest(): one array per field, the same text for every batch size (prepared once). */
function columns(opens: readonly OpenInput[]) {
  return {
    emailIds: opens.map((o) => o.emailId),
    keys: opens.map((o) => o.recipient ?? ''),
    teamIds: opens.map((o) => o.teamId),
    ats: opens.map((o) => o.at.toISOString()),
    userAgents: opens.map((o) => o.userAgent),
  };
}

/**
 * One open per copy, in ONE statement: each copy's tally upserted, in (email, key) order (the order
 * rows are locked in, the same in every batch). A later open is an update of its row. Answers the
 * opens that inserted a row: their copies' first opens.
 *
 * Every join here is between a handful of input rows and a table's index. The planner sees an
 * unnest() of parameters, and a CTE reading another, as about ten rows, so a join of two CTEs can
 * become a nested loop over both: with 700 opens, 490,000 comparisons (45 ms, measured).
 */
async function updateTallies(tx: Kysely<Database> | Transaction<Database>, opens: readonly OpenInput[]): Promise<OpenInput[]> {
  const c = columns(opens);
  const { rows } = await sql<{ email_id: string; open_key: string }>`
    WITH tally AS (
      INSERT INTO email_opens AS o (email_id, open_key, open_count, last_opened_at, activity_at, recent_at, recent_user_agents)
      SELECT i.email_id, i.open_key, 1, i.at, i.at, ARRAY[i.at], ARRAY[i.user_agent]
      FROM unnest(${c.emailIds}::text[], ${c.keys}::text[], ${c.teamIds}::int[], ${c.ats}::timestamptz[], ${c.userAgents}::text[])
        AS i(email_id, open_key, team_id, at, user_agent)
      -- The token is ours, but its email may be gone since: it must still be the team's.
      WHERE EXISTS (SELECT 1 FROM emails m WHERE m.id = i.email_id AND m.team_id = i.team_id)
      ORDER BY i.email_id, i.open_key
      ON CONFLICT (email_id, open_key) DO UPDATE SET
        open_count = o.open_count + 1,
        last_opened_at = greatest(o.last_opened_at, excluded.last_opened_at),
        recent_at = (o.recent_at || excluded.recent_at)[greatest(1, cardinality(o.recent_at) + 2 - ${RECENT_KEPT}::int):],
        recent_user_agents = (o.recent_user_agents || excluded.recent_user_agents)[greatest(1, cardinality(o.recent_user_agents) + 2 - ${RECENT_KEPT}::int):],
        -- Moved: to the copy's new last open, so that RETURNING can tell (activity_at = last_opened_at).
        activity_at = CASE WHEN o.activity_at < excluded.activity_at - ${ACTIVITY_STEP}::interval
                           THEN greatest(o.last_opened_at, excluded.last_opened_at) ELSE o.activity_at END
      -- xmax is 0 only on a row this statement inserted (an updated row carries its lock); the
      -- tests of record-opens.test.ts hold this on PostgreSQL and PGlite.
      RETURNING o.email_id, o.open_key, (o.xmax = 0) AS inserted, o.activity_at = o.last_opened_at AS moved, o.last_opened_at
    ),
    -- A later open that moved its copy's activity_at moves the address activity of every recipient
    -- of the email (as the insert trigger does for first opens): at most hourly per copy, so the
    -- lock ON CONFLICT takes even when its WHERE declines costs little.
    activity AS (
      INSERT INTO address_activity AS a (team_id, address, last_opened_at)
      SELECT r.team_id, r.address, max(t.last_opened_at)
      FROM tally t JOIN email_recipients r ON r.email_id = t.email_id
      WHERE t.moved AND NOT t.inserted
      GROUP BY r.team_id, r.address
      ORDER BY r.team_id, r.address
      ON CONFLICT (team_id, address) DO UPDATE SET last_opened_at = excluded.last_opened_at
      WHERE a.last_opened_at IS NULL OR a.last_opened_at < excluded.last_opened_at
    )
    SELECT t.email_id, t.open_key FROM tally t WHERE t.inserted`.execute(tx);
  if (rows.length === 0) return [];
  const firsts = new Set(rows.map((row) => copyOf(row.email_id, row.open_key)));
  return opens.filter((o) => firsts.has(copyOf(o.emailId, o.recipient ?? '')));
}

/**
 * First opens (their tally rows just inserted, in this transaction): their emails locked in id order
 * (as recordEmailEvents locks them, after the tally rows in every batch, so concurrent batches
 * cannot deadlock; the insert triggers' "first open of the email" then sees every earlier open),
 * the status moved as status-precedence.ts allows, and one OPENED event per copy inserted.
 */
async function recordFirstOpens(tx: Kysely<Database> | Transaction<Database>, opens: readonly OpenInput[]): Promise<void> {
  const ids = [...new Set(opens.map((o) => o.emailId))];
  const { rows } = await sql<{ id: string }>`SELECT id FROM emails WHERE id = ANY(${ids}::text[]) ORDER BY id FOR UPDATE`.execute(tx);
  // An email deleted meanwhile: its tally row went with it (ON DELETE CASCADE), and so goes its open.
  const found = new Set(rows.map((row) => row.id));
  const kept = found.size === ids.length ? opens : opens.filter((o) => found.has(o.emailId));
  if (kept.length === 0) return;
  const c = columns(kept);
  const replaceable = sql.join(replaceableByEvent('OPENED'));
  await sql`
    WITH input AS (
      SELECT * FROM unnest(${c.emailIds}::text[], ${c.keys}::text[], ${c.teamIds}::int[], ${c.ats}::timestamptz[], ${c.userAgents}::text[])
        AS i(email_id, open_key, team_id, at, user_agent)
    ),
    moved AS (
      UPDATE emails m SET status = 'OPENED', updated_at = f.at
      FROM (SELECT email_id, min(at) AS at FROM input GROUP BY email_id) f
      WHERE m.id = f.email_id AND m.status IN (${replaceable})
    )
    INSERT INTO email_events (team_id, email_id, status, data, open_key, created_at)
    SELECT i.team_id, i.email_id, 'OPENED',
      CASE WHEN i.open_key = '' THEN jsonb_build_object('userAgent', i.user_agent)
           ELSE jsonb_build_object('recipient', i.open_key, 'userAgent', i.user_agent) END,
      i.open_key, i.at
    FROM input i ORDER BY i.email_id, i.open_key`.execute(tx);
}

// Recording opens (the tracking pixel): ONE OPENED event per tracked copy, and its tally in
// email_opens (migrations 0018, 0020). A copy is named by open_key: '' for an email, the recipient
// for a MARKETING copy. The first open (first-opens.ts) inserts the event with recordEmailEvent's
// rules (it joins the history, the status moves only as status-precedence.ts allows and never out of
// QUEUED or SCHEDULED, the insert triggers fire: webhook email.opened, the daily counters, address
// activity) and its data is that open's {recipient?, userAgent}. Each later open (here) only updates
// the tally, which reads of the event (queries.ts listEmailEvents) merge into its data:
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
// pixel's traffic (readers reopening, image proxies, previews), and one narrow update costs the
// database far less than locking the email, rewriting a jsonb list and probing address activity for
// every open (bench/RESULTS.md, tracking-open). So only a copy's first open moves the email's status: an open that arrives while the email is still
// QUEUED or SCHEDULED (another recipient awaiting a retry) joins the history without moving it, and
// the copy's later opens do not move it afterwards either.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export const LATER_OPENS_KEPT = 10;
/** email_opens.recent_at keeps one more: the first open, until LATER_OPENS_KEPT later ones push it out. */
const RECENT_KEPT = LATER_OPENS_KEPT + 1;
/** How far a later open must be past the copy's last move of address activity to move it again. */
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
    laterOpens: row.recent_at
      .slice(from)
      .map((at, i) => ({ at: new Date(at).toISOString(), userAgent: row.recent_user_agents[from + i] ?? null })),
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

const copyOf = (emailId: string, openKey: string) => `${emailId}\n${openKey}`;

/**
 * The batch as rounds holding at most one open per copy (ON CONFLICT may touch a row once per
 * statement), in arrival order: round k has the k-th open of each copy. Usually one round.
 */
export function roundsOf(opens: readonly OpenInput[]): OpenInput[][] {
  const rounds: OpenInput[][] = [];
  const seen = new Map<string, number>();
  for (const open of opens) {
    const copy = copyOf(open.emailId, open.recipient ?? '');
    const round = seen.get(copy) ?? 0;
    seen.set(copy, round + 1);
    (rounds[round] ??= []).push(open);
  }
  return rounds;
}

/** Columns for unnest(): one array per field, the same text for every batch size (prepared once).
 * No team: a copy's first open checked it (recordFirstOpens), and the token names the email's own. */
export function openColumns(opens: readonly OpenInput[]) {
  return {
    emailIds: opens.map((o) => o.emailId),
    keys: opens.map((o) => o.recipient ?? ''),
    ats: opens.map((o) => o.at.toISOString()),
    userAgents: opens.map((o) => o.userAgent),
  };
}

/**
 * What an open does to a copy's tally row that exists (ON CONFLICT ... DO UPDATE SET): counted, the
 * latest RECENT_KEPT opens kept, and activity_at moved when more than ACTIVITY_STEP past (to the
 * copy's new last open, so that RETURNING can tell: activity_at = last_opened_at).
 */
export const laterOpenUpdate = sql`
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
export const laterOpenActivity = sql`
  INSERT INTO address_activity AS a (team_id, address, last_opened_at)
  SELECT r.team_id, r.address, max(t.last_opened_at)
  FROM tally t JOIN email_recipients r ON r.email_id = t.email_id
  WHERE t.moved AND NOT t.inserted AND r.email_id = ANY(ARRAY(SELECT m.email_id FROM tally m WHERE m.moved AND NOT m.inserted))
  GROUP BY r.team_id, r.address
  ORDER BY r.team_id, r.address
  ON CONFLICT (team_id, address) DO UPDATE SET last_opened_at = excluded.last_opened_at
  WHERE a.last_opened_at IS NULL OR a.last_opened_at < excluded.last_opened_at`;

/**
 * Later opens: the opens of copies that have a tally, each one update of that row, in (email, key)
 * order (the order rows are locked in, the same in every statement). Nothing else is locked: not
 * the email, whose status only a first open moves. Answers the other opens, in their order: their
 * copies' first opens (and the opens of emails gone), for recordFirstOpens.
 *
 * One statement per round (see roundsOf; usually one), several in one transaction, so that a
 * failed batch has counted nothing when it is tried again. Every join in it is between the input
 * and a table's index: the planner sees an unnest() of parameters, and a CTE reading another, as
 * about ten rows, so a join of two CTEs can become a nested loop over both, quadratic in the batch.
 */
export async function recordLaterOpens(db: Kysely<Database>, opens: readonly OpenInput[]): Promise<OpenInput[]> {
  if (opens.length === 0) return [];
  const rounds = roundsOf(opens);
  const all = async (tx: Kysely<Database>) => {
    const rest: OpenInput[] = [];
    for (const round of rounds) rest.push(...(await updateTallies(tx, round)));
    return rest;
  };
  return rounds.length === 1 ? all(db) : db.transaction().execute(all);
}

async function updateTallies(db: Kysely<Database>, opens: readonly OpenInput[]): Promise<OpenInput[]> {
  const c = openColumns(opens);
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
      -- xmax is 0 only on a row this statement inserted (an updated row carries its lock): here only
      -- when the copy's row went between the probe and the upsert (its email deleted).
      RETURNING o.email_id, o.open_key, (o.xmax = 0) AS inserted, o.activity_at = o.last_opened_at AS moved, o.last_opened_at
    ),
    activity AS (${laterOpenActivity})
    SELECT t.email_id, t.open_key FROM tally t`.execute(db);
  if (rows.length === opens.length) return [];
  const counted = new Set(rows.map((row) => copyOf(row.email_id, row.open_key)));
  return opens.filter((o) => !counted.has(copyOf(o.emailId, o.recipient ?? '')));
}

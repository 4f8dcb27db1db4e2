// Recording opens (the tracking pixel): ONE OPENED event per tracked copy, and its tally in
// email_opens (0004_emails.sql). A copy is named by open_key: '' for an email, the recipient
// for a MARKETING copy. The first open (first-opens.ts) inserts the event with recordEmailEvent's
// rules (it joins the history, the status moves only as status-precedence.ts allows and never out of
// QUEUED or SCHEDULED, the insert triggers fire: webhook email.opened, the daily counters, address
// activity) and its data is that open's {recipient?, userAgent}. Each later open (here) only updates
// the tally, which reads of the event (queries.ts listEmailEvents) merge into its data (the SQL of
// both: open-queries.ts):
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
// Why a later open touches nothing but its tally row: later opens are most of the
// pixel's traffic (readers reopening, image proxies, previews), and one narrow update costs the
// database far less than locking the email, rewriting a jsonb list and probing address activity for
// every open (bench/RESULTS.md, tracking-open). So only a copy's first open moves the email's status: an open that arrives while the email is still
// QUEUED or SCHEDULED (another recipient awaiting a retry) joins the history without moving it, and
// the copy's later opens do not move it afterwards either.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { LATER_OPENS_KEPT, recordLaterOpenTallies, type OpenColumns } from './open-queries.ts';

interface RecentOpen {
  at: string;
  userAgent: string | null;
}

/** What a read of an OPENED event adds to its data from the copy's tally (email_opens). */
interface OpenTally {
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

/** A copy's key: its email and open_key (recordFirstOpenTallies looks the events' bodies up by it). */
export const copyOf = (emailId: string, openKey: string) => `${emailId}\n${openKey}`;

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

/** Columns for unnest() (open-queries.ts). No team: a copy's first open checked it
 * (recordFirstOpens), and the token names the email's own. */
export function openColumns(opens: readonly OpenInput[]): OpenColumns {
  return {
    emailIds: opens.map((o) => o.emailId),
    keys: opens.map((o) => o.recipient ?? ''),
    ats: opens.map((o) => o.at.toISOString()),
    userAgents: opens.map((o) => o.userAgent),
  };
}

/**
 * Later opens: the opens of copies that have a tally, each one update of that row, in (email, key)
 * order (the order rows are locked in, the same in every statement). Nothing else is locked: not
 * the email, whose status only a first open moves. Answers the other opens, in their order: their
 * copies' first opens (and the opens of emails gone), for recordFirstOpens.
 *
 * One statement per round (see roundsOf; usually one), several in one transaction, so that a
 * failed batch has counted nothing when it is tried again (the statement: open-queries.ts
 * recordLaterOpenTallies).
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
  const rows = await recordLaterOpenTallies(db, openColumns(opens));
  if (rows.length === opens.length) return [];
  const counted = new Set(rows.map((row) => copyOf(row.email_id, row.open_key)));
  return opens.filter((o) => !counted.has(copyOf(o.emailId, o.recipient ?? '')));
}

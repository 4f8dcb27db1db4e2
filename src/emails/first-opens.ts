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
// counters) see every earlier open of the email. The statements are in open-queries.ts.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { replaceableByEvent } from './email-events.ts';
import { copyOf, openColumns, roundsOf, type OpenInput } from './email-opens.ts';
import { lockEmailsOfOpens, recordFirstOpenTallies } from './open-queries.ts';
import { emailEventCall, type EmailOfEvent } from './views.ts';

/**
 * The body of each open's OPENED event by copy, as recordFirstOpenTallies looks it up: built for
 * every open of the round, since which of them are first opens the statement finds out.
 */
function callsOf(round: readonly OpenInput[], emails: ReadonlyMap<string, EmailOfEvent>): Record<string, string> {
  const calls: Record<string, string> = {};
  for (const open of round) {
    const details =
      open.recipient === null
        ? { userAgent: open.userAgent }
        : { recipient: open.recipient, userAgent: open.userAgent };
    calls[copyOf(open.emailId, open.recipient ?? '')] = emailEventCall(
      emails.get(open.emailId)!,
      'OPENED',
      details,
      open.at,
    ).payload;
  }
  return calls;
}

/** Records first opens (any number per copy: the rest count as later opens). Opens of emails the team does not have are dropped. */
export async function recordFirstOpens(db: Kysely<Database>, opens: readonly OpenInput[]): Promise<void> {
  if (opens.length === 0) return;
  await db.transaction().execute(async (tx) => {
    const teamOf = new Map(opens.map((o) => [o.emailId, o.teamId]));
    const ids = [...teamOf.keys()];
    const teams = ids.map((id) => teamOf.get(id)!);
    const found = new Map((await lockEmailsOfOpens(tx, ids, teams)).map((row) => [row.id, row]));
    // The token is ours, but its email may be gone since, and must be the team's.
    const kept = found.size === ids.length ? opens : opens.filter((o) => found.has(o.emailId));
    // One open per copy per round; the emails are locked.
    for (const round of roundsOf(kept))
      await recordFirstOpenTallies(tx, openColumns(round), replaceableByEvent('OPENED'), callsOf(round, found));
  });
}

// Exits at the moment of the event that causes them, in that event's transaction: a journey
// archived (all its ACTIVE runs), a contact unsubscribed or deleted (its ACTIVE runs on every
// journey, called by the contacts area through contacts/hooks.ts). The runner still checks
// the contact before each EMAIL step, for a run enrolled while its contact was leaving. Leaving a
// segment is checked only there: the contract says "before its next email", and membership also
// changes with time and email activity, where no write happens to hang the check on.
import type { Transaction } from 'kysely';
import type { Database, ExitReason } from '../db/schema.ts';
import type { ContactsLeft } from '../contacts/index.ts';
import { recordRunEnded } from './events.ts';
import { bumpCounters, exitActiveRuns, type RunRow } from './run-queries.ts';

/** Counters (one statement per journey, in journey id order) and events of runs that just exited. */
async function recordExits(tx: Transaction<Database>, runs: readonly RunRow[], reason: ExitReason, now: Date) {
  const perJourney = new Map<string, { teamId: number; count: number }>();
  for (const run of runs) {
    const entry = perJourney.get(run.journey_id) ?? { teamId: run.team_id, count: 0 };
    entry.count++;
    perJourney.set(run.journey_id, entry);
  }
  for (const [journeyId, { teamId, count }] of [...perJourney].sort(([a], [b]) => (a < b ? -1 : 1)))
    await bumpCounters(tx, teamId, journeyId, { active: -count, exited: count });
  for (const run of runs) await recordRunEnded(tx, run, 'EXITED', reason, now);
}

/** Archive: every ACTIVE run of the journey exits with JOURNEY_ARCHIVED (the journey row is locked). */
export async function exitRunsOfJourney(
  tx: Transaction<Database>,
  teamId: number,
  journeyId: string,
  now: Date,
): Promise<void> {
  const runs = await exitActiveRuns(tx, teamId, { journeyId }, 'JOURNEY_ARCHIVED', now);
  await recordExits(tx, runs, 'JOURNEY_ARCHIVED', now);
}

/** The contact hook: contacts unsubscribed or deleted by the caller's transaction leave their journeys. */
export async function exitRunsOfContacts(tx: Transaction<Database>, left: ContactsLeft): Promise<void> {
  const reason: ExitReason = left.reason === 'unsubscribed' ? 'UNSUBSCRIBED' : 'CONTACT_DELETED';
  const runs = await exitActiveRuns(tx, left.teamId, { contactIds: left.contactIds }, reason, left.now);
  await recordExits(tx, runs, reason, left.now);
}

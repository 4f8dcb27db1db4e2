// The writers behind the tracking endpoints: group commits (platform/batch-writer.ts) of opens
// (recordLaterOpens, then recordFirstOpens for the copies opened for the first time) and clicks
// (recordEmailEvents). They belong to Emails, which records them; app.ts hands them to tracking's
// routes, so Tracking never imports Emails and Emails can use tracking's HTML rewriting.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from 'pino';
import { recordEmailEvents, type EmailEventInput } from './email-events.ts';
import { recordLaterOpens, type OpenInput } from './email-opens.ts';
import { recordFirstOpens } from './first-opens.ts';
import { BatchWriter } from '../platform/batch-writer.ts';
import type { TrackedClick, TrackingWriters } from '../tracking/index.ts';

type TrackingWriterDeps = { db: Kysely<Database>; logger: Logger };

/** Unwritten events past which a request waits for its own write (memory stays bounded). */
const BACKLOG_LIMIT = 5_000;
/** Events per statement: opens and clicks are small rows; bigger batches amortise each statement. */
const MAX_BATCH = 1_000;
/** A busy writer's pause between batches: nobody waits on these writes, and each statement has a
 * fixed cost (round trip, plan, commit); written back to back, batches held about 60 opens. */
const GATHER_MS = 5;
/**
 * First opens cost several times a later open (an event, the email's status, the event's triggers):
 * one writer, one transaction at a time, recorded about 11,600 a second on this 2-core machine, two
 * about 14,800, three no more than two (bench/tracking-open.ts, 2026-11-25). Transactions side by
 * side cannot deadlock (emails are locked before tallies in each).
 */
const FIRST_OPEN_WRITERS = 2;
/** An email's opens always go to the same first-open writer, so they are recorded in the order they
 * came, and its lock is taken by one writer. The id's last character is random. */
const firstOpenWriterOf = (emailId: string) => emailId.charCodeAt(emailId.length - 1) % FIRST_OPEN_WRITERS;

/**
 * The batch as rounds holding at most one event per email (recordEmailEvents' rule), in arrival
 * order: round k has the k-th event of each email, so one email's events keep their order.
 */
function roundsOf(events: readonly TrackedClick[]): EmailEventInput[][] {
  const rounds: EmailEventInput[][] = [];
  const seen = new Map<string, number>();
  for (const e of events) {
    const round = seen.get(e.target.emailId) ?? 0;
    seen.set(e.target.emailId, round + 1);
    (rounds[round] ??= []).push({
      teamId: e.target.teamId,
      emailId: e.target.emailId,
      status: 'CLICKED',
      data: e.data,
      at: e.at,
    });
  }
  return rounds;
}

/** Clicks: one recordEmailEvents statement per batch (it locks in email order). */
async function writeClicks(deps: TrackingWriterDeps, events: TrackedClick[]): Promise<void> {
  const [first, ...more] = roundsOf(events);
  if (more.length === 0) return void (await recordEmailEvents(deps.db, first!));
  // An email clicked again while its batch waited: one transaction, so a failed batch retried
  // event by event (BatchWriter) records nothing twice.
  await deps.db.transaction().execute(async (tx) => {
    for (const round of [first!, ...more]) await recordEmailEvents(tx, round);
  });
}

/** The open and click writers; drained() writes the backlog (the app's onClose). */
export function trackingEventWriters(deps: TrackingWriterDeps): TrackingWriters {
  const notRecorded = (error: unknown, emailId: string) =>
    deps.logger.error({ err: error, emailId }, 'tracking event not recorded');
  const limits = { maxBatch: MAX_BATCH, limit: BACKLOG_LIMIT, gatherMs: GATHER_MS };
  // Group commits for opens: later opens (one update of the copy's tally each), and the first opens
  // they hand on (an event each, under the email's lock; src/emails/first-opens.ts). Each retries
  // only its own work when a batch fails, and they run side by side. Past its limit a first-open
  // writer holds the later-open writer up, which then holds requests up: memory stays bounded.
  const firstOpenWriters = Array.from(
    { length: FIRST_OPEN_WRITERS },
    () =>
      new BatchWriter<OpenInput>({
        ...limits,
        write: (batch) => recordFirstOpens(deps.db, batch),
        onError: (error, open) => notRecorded(error, open.emailId),
      }),
  );
  const handOn = async (firsts: OpenInput[]) => {
    for (const open of firsts) {
      const wait = firstOpenWriters[firstOpenWriterOf(open.emailId)]!.add(open);
      if (wait !== null) await wait;
    }
  };
  const opens = new BatchWriter<OpenInput>({
    ...limits,
    write: async (batch) => handOn(await recordLaterOpens(deps.db, batch)),
    onError: (error, open) => notRecorded(error, open.emailId),
  });
  const clicks = new BatchWriter<TrackedClick>({
    ...limits,
    write: (batch) => writeClicks(deps, batch),
    onError: (error, click) => notRecorded(error, click.target.emailId),
  });
  return {
    open: (open) => opens.add(open),
    click: (click) => clicks.add(click),
    async drained() {
      await Promise.all([
        opens.drained().then(() => Promise.all(firstOpenWriters.map((writer) => writer.drained()))),
        clicks.drained(),
      ]);
    },
  };
}

// The public tracking endpoints, outside the API prefix and without an API key (like /unsubscribe):
//
//   GET /t/o/{token}  the open pixel: always the same 43-byte GIF with no-cache headers, valid token or
//                     not (its answer never tells validity); a valid token records the open: the
//                     copy's OPENED event on its first open, that event's data on later ones
//   GET /t/c/{token}  a rewritten link: records a CLICKED event with the link and answers 302 to it;
//                     a token that is not ours answers a 404 page, never a redirect
//
// See README.md for what each records. The answer does not wait for the database: a reader's mail
// client should not wait on our write, and many opens share one statement (group commit,
// platform/batch-writer.ts: recordLaterOpens and recordFirstOpens for opens, recordEmailEvents for
// clicks) instead of one each. Only when the unwritten
// backlog passes BACKLOG_LIMIT does a request wait for its own write, so memory stays bounded under
// overload and nothing is dropped. The backlog is written before the app closes. Pages, not API:
// hidden from OpenAPI.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../deps.ts';
import {
  recordEmailEvents,
  recordFirstOpens,
  recordLaterOpens,
  type EmailEventInput,
  type OpenInput,
} from '../emails/index.ts';
import { BatchWriter } from '../platform/batch-writer.ts';
import { PIXEL_HEADERS, TRANSPARENT_GIF } from './pixel.ts';
import { CLICK_PATH, OPEN_PATH, readClickToken, readOpenToken, type TrackedEmail } from './tokens.ts';

export type TrackingDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'logger'>;

/** Unwritten events past which a request waits for its own write (memory stays bounded). */
const BACKLOG_LIMIT = 5_000;
/** Events per statement: opens and clicks are small rows; bigger batches amortise each statement. */
const MAX_BATCH = 1_000;
/** A busy writer's pause between batches: nobody waits on these writes, and each statement has a
 * fixed cost (round trip, plan, commit); written back to back, batches held about 60 opens. */
const GATHER_MS = 5;
const USER_AGENT_MAX = 512;
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

interface ClickEvent {
  target: TrackedEmail;
  data: Record<string, string | null>;
  at: Date;
}

/**
 * The batch as rounds holding at most one event per email (recordEmailEvents' rule), in arrival
 * order: round k has the k-th event of each email, so one email's events keep their order.
 */
function roundsOf(events: readonly ClickEvent[]): EmailEventInput[][] {
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
async function writeClicks(deps: TrackingDeps, events: ClickEvent[]): Promise<void> {
  const [first, ...more] = roundsOf(events);
  if (more.length === 0) return void (await recordEmailEvents(deps.db, first!));
  // An email clicked again while its batch waited: one transaction, so a failed batch retried
  // event by event (BatchWriter) records nothing twice.
  await deps.db.transaction().execute(async (tx) => {
    for (const round of [first!, ...more]) await recordEmailEvents(tx, round);
  });
}

const userAgentOf = (header: string | undefined) => (header === undefined ? null : header.slice(0, USER_AGENT_MAX));

/** The recipient is in the data only when the token names one (a MARKETING copy). */
function eventData(
  target: TrackedEmail,
  userAgent: string | undefined,
  extra: Record<string, string>,
): Record<string, string | null> {
  return {
    ...extra,
    ...(target.recipient === null ? {} : { recipient: target.recipient }),
    userAgent: userAgentOf(userAgent),
  };
}

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Link not valid</title></head>' +
  '<body><h1>Link not valid</h1><p>This link is not valid. Check that it was copied completely from the email.</p></body></html>';

function notFound(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .headers({
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
    })
    .type('text/html; charset=utf-8')
    .send(NOT_FOUND_PAGE);
}

/** Registered at the root by app.ts. */
export function registerTrackingRoutes(app: FastifyInstance, deps: TrackingDeps): void {
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
  const clicks = new BatchWriter<ClickEvent>({
    ...limits,
    write: (batch) => writeClicks(deps, batch),
    onError: (error, click) => notRecorded(error, click.target.emailId),
  });
  app.addHook('onClose', async () => {
    await Promise.all([
      opens.drained().then(() => Promise.all(firstOpenWriters.map((writer) => writer.drained()))),
      clicks.drained(),
    ]);
  });
  // No params schema: the token is checked by its signature, and the pixel is the hot path.
  const options = { schema: { hide: true } };

  // Not async: the usual answer goes out at once, without the handler's promise (the hot path).
  app.get<{ Params: { token: string } }>(`${OPEN_PATH}/:token`, options, (request, reply) => {
    const target = readOpenToken(deps.secrets, request.params.token);
    if (target !== null) {
      const open = {
        teamId: target.teamId,
        emailId: target.emailId,
        recipient: target.recipient,
        userAgent: userAgentOf(request.headers['user-agent']),
        at: deps.clock.now(),
      };
      const wait = opens.add(open);
      if (wait !== null) {
        void wait.then(() => reply.headers(PIXEL_HEADERS).send(TRANSPARENT_GIF));
        return;
      }
    }
    reply.headers(PIXEL_HEADERS).send(TRANSPARENT_GIF);
  });

  app.get<{ Params: { token: string } }>(`${CLICK_PATH}/:token`, options, async (request, reply) => {
    const target = readClickToken(deps.secrets, request.params.token);
    if (target === null) return notFound(reply);
    const wait = clicks.add({
      target,
      data: eventData(target, request.headers['user-agent'], { link: target.link }),
      at: deps.clock.now(),
    });
    if (wait !== null) await wait;
    return reply
      .code(302)
      .headers({ location: target.link, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
      .send();
  });
}

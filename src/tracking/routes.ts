// The public tracking endpoints, outside the API prefix and without an API key (like /unsubscribe):
//
//   GET /t/o/{token}  the open pixel: always the same 43-byte GIF with no-cache headers, valid token or
//                     not (its answer never tells validity); a valid token records an OPENED event
//   GET /t/c/{token}  a rewritten link: records a CLICKED event with the link and answers 302 to it;
//                     a token that is not ours answers a 404 page, never a redirect
//
// Every open and every click is its own event (see README.md for what each records). The answer does
// not wait for the database: a reader's mail client should not wait on our write, and many opens
// share one statement (group commit, recordEmailEvents) instead of one each. Only when the unwritten
// backlog passes BACKLOG_LIMIT does a request wait for its own write, so memory stays bounded under
// overload and nothing is dropped. The backlog is written before the app closes. Pages, not API: hidden from OpenAPI.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../deps.ts';
import type { EmailStatus } from '../db/schema.ts';
import { recordEmailEvents, type EmailEventInput } from '../emails/index.ts';
import { Coalescer } from '../platform/coalescer.ts';
import { PIXEL_HEADERS, TRANSPARENT_GIF } from './pixel.ts';
import { CLICK_PATH, OPEN_PATH, readClickToken, readOpenToken, type TrackedEmail } from './tokens.ts';

export type TrackingDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'logger'>;

// Small: platform/coalescer.ts scans its whole queue for every batch it takes, so a long queue costs CPU.
const BACKLOG_LIMIT = 1_000;
/** Batches in flight at once; the default pool has 10 connections, the API needs the rest. */
const WRITERS = 4;
const USER_AGENT_MAX = 512;

interface TrackingEvent {
  target: TrackedEmail;
  status: Extract<EmailStatus, 'OPENED' | 'CLICKED'>;
  data: Record<string, string | null>;
  at: Date;
}

/**
 * The batch as rounds holding at most one event per email (recordEmailEvents' rule), in arrival
 * order: round k has the k-th event of each email, so one email's events keep their order.
 */
function roundsOf(events: readonly TrackingEvent[]): EmailEventInput[][] {
  const rounds: EmailEventInput[][] = [];
  const seen = new Map<string, number>();
  for (const e of events) {
    const round = seen.get(e.target.emailId) ?? 0;
    seen.set(e.target.emailId, round + 1);
    (rounds[round] ??= []).push({ teamId: e.target.teamId, emailId: e.target.emailId, status: e.status, data: e.data, at: e.at });
  }
  return rounds;
}

/** Group commit of tracking events: one statement per batch (recordEmailEvents locks in email order). */
function eventWriter(deps: TrackingDeps) {
  let backlog = 0;
  const coalescer = new Coalescer<TrackingEvent, void>(
    async (events) => {
      const [first, ...more] = roundsOf(events);
      if (more.length === 0) await recordEmailEvents(deps.db, first!);
      // An email opened again while its batch waited (rare: opens of one email are spread out):
      // one transaction, so a failed batch retried event by event (Coalescer) records nothing twice.
      else await deps.db.transaction().execute(async (tx) => {
        for (const round of [first!, ...more]) await recordEmailEvents(tx, round);
      });
      return events.map(() => undefined);
    },
    // A few batches at once: each waits on its round trip, not on the CPU; ordered locks keep them apart.
    { maxBatch: 100, concurrency: WRITERS },
  );
  let waiters: (() => void)[] = [];
  const settle = () => {
    backlog -= 1;
    if (backlog > 0) return;
    for (const wake of waiters) wake();
    waiters = [];
  };
  return {
    /** `written` resolves (never rejects: a failure is logged) once the event is in the database. */
    write(event: TrackingEvent): { written: Promise<void>; mustWait: boolean } {
      backlog += 1;
      const written = coalescer
        .submit(event)
        .catch((error: unknown) => deps.logger.error({ err: error, emailId: event.target.emailId }, 'tracking event not recorded'))
        .finally(settle);
      return { written, mustWait: backlog > BACKLOG_LIMIT };
    },
    /** Resolves when nothing is waiting to be written. */
    drained: () => (backlog === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}

const userAgentOf = (header: string | undefined) => (header === undefined ? null : header.slice(0, USER_AGENT_MAX));

/** The recipient is in the data only when the token names one (a MARKETING copy). */
function eventData(target: TrackedEmail, userAgent: string | undefined, extra: Record<string, string> = {}): Record<string, string | null> {
  return { ...extra, ...(target.recipient === null ? {} : { recipient: target.recipient }), userAgent: userAgentOf(userAgent) };
}

/** eventData of an open, built without spreads: this runs on every pixel request. */
function openData(target: TrackedEmail, userAgent: string | undefined): Record<string, string | null> {
  return target.recipient === null ? { userAgent: userAgentOf(userAgent) } : { recipient: target.recipient, userAgent: userAgentOf(userAgent) };
}

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Link not valid</title></head>' +
  '<body><h1>Link not valid</h1><p>This link is not valid. Check that it was copied completely from the email.</p></body></html>';

function notFound(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'" })
    .type('text/html; charset=utf-8')
    .send(NOT_FOUND_PAGE);
}

/** Registered at the root by app.ts. */
export function registerTrackingRoutes(app: FastifyInstance, deps: TrackingDeps): void {
  const writer = eventWriter(deps);
  app.addHook('onClose', async () => writer.drained());
  // No params schema: the token is checked by its signature, and the pixel is the hot path.
  const options = { schema: { hide: true } };

  // Not async: the usual answer goes out at once, without the handler's promise (the hot path).
  app.get<{ Params: { token: string } }>(`${OPEN_PATH}/:token`, options, (request, reply) => {
    const target = readOpenToken(deps.secrets, request.params.token);
    if (target !== null) {
      const { written, mustWait } = writer.write({ target, status: 'OPENED', data: openData(target, request.headers['user-agent']), at: deps.clock.now() });
      // `written` never rejects (a failure is logged), so the answer always goes out.
      if (mustWait) {
        void written.then(() => reply.headers(PIXEL_HEADERS).send(TRANSPARENT_GIF));
        return;
      }
    }
    reply.headers(PIXEL_HEADERS).send(TRANSPARENT_GIF);
  });

  app.get<{ Params: { token: string } }>(`${CLICK_PATH}/:token`, options, async (request, reply) => {
    const target = readClickToken(deps.secrets, request.params.token);
    if (target === null) return notFound(reply);
    const { written, mustWait } = writer.write({ target, status: 'CLICKED', data: eventData(target, request.headers['user-agent'], { link: target.link }), at: deps.clock.now() });
    if (mustWait) await written;
    return reply.code(302).headers({ location: target.link, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).send();
  });
}

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
// emails/tracking-event-writers.ts, wired by app.ts) instead of one each. Only when the unwritten backlog passes its
// limit does a request wait for its own write, so memory stays bounded under overload and nothing
// is dropped. The backlog is written before the app closes. Pages, not API:
// hidden from OpenAPI.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { PIXEL_HEADERS, TRANSPARENT_GIF } from './pixel.ts';
import { CLICK_PATH, OPEN_PATH, readClickToken, readOpenToken, type TrackedEmail } from './tokens.ts';
import type { TrackingWriters } from './tracking-writers.ts';

export type TrackingDeps = { clock: Clock; secrets: Secrets };

const USER_AGENT_MAX = 512;

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

function linkNotValid(reply: FastifyReply): FastifyReply {
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
export function registerTrackingRoutes(app: FastifyInstance, deps: TrackingDeps, writers: TrackingWriters): void {
  app.addHook('onClose', () => writers.drained());
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
      const wait = writers.open(open);
      if (wait !== null) {
        void wait.then(() => reply.headers(PIXEL_HEADERS).send(TRANSPARENT_GIF));
        return;
      }
    }
    reply.headers(PIXEL_HEADERS).send(TRANSPARENT_GIF);
  });

  app.get<{ Params: { token: string } }>(`${CLICK_PATH}/:token`, options, async (request, reply) => {
    const target = readClickToken(deps.secrets, request.params.token);
    if (target === null) return linkNotValid(reply);
    const wait = writers.click({
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

// Admin API: a team's events as they are recorded (`herald admin webhooks tail`), from the event
// tail of the webhooks area (src/webhooks/event-tail.ts), whether or not the team has a webhook.
//
// A page with a cursor, polled, rather than a stream (server-sent events): every admin operation is
// one JSON request and answer, described in the OpenAPI document, and `herald admin` sends them over
// HTTP or serves them in-process through app.inject, which answers only once a response has ended.
// A cursor also survives what a held connection does not: a restarted server, a proxy's idle
// timeout, another process of the deployment answering the next read. Once a second is soon enough
// for a developer watching events.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readEventTail, TAIL_CURSOR, TAIL_OPEN_MS } from '../webhooks/index.ts';
import type { AdminDeps } from './admin-deps.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE, requireTeam } from './route-kit.ts';
import { TeamParams } from './schemas.ts';

const TailQuery = z.object({
  after: z
    .string()
    .regex(TAIL_CURSOR, "a cursor from an earlier answer (nextCursor or an event's cursor)")
    .optional()
    .describe('nextCursor of the previous read: the events recorded after it; absent: the newest ones'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

const TailEvent = z.object({
  cursor: z.string().describe('read with after=this for the events that follow this one'),
  type: z.string().describe('the event type (docs/webhooks.md)'),
  createdAt: z.string(),
  about: z
    .string()
    .nullable()
    .describe(
      'the id of what the event is about: email, SMS message, journey run, campaign, inbound message or webhook',
    ),
  summary: z.string().describe('one line for people: subject and recipient, the reason, ...'),
  event: z
    .object({ type: z.string(), createdAt: z.string(), data: z.unknown() })
    .describe('the body a webhook receives (WebhookEventPayload)'),
});

const TailPage = z.object({
  data: TailEvent.array().describe('oldest first'),
  nextCursor: z.string().describe('pass as after in the next read'),
  hasMore: z.boolean().describe('more events are already waiting: read again at once'),
  recordingUntil: z.string().describe("the team's events are recorded for the tail until then; each read moves it on"),
});

export function registerWebhookTailAdminRoutes(app: FastifyInstance, deps: Pick<AdminDeps, 'db' | 'clock'>): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/teams/:teamId/events',
    {
      schema: {
        ...ADMIN_ROUTE,
        summary: "A team's events as they are recorded, oldest first, after a cursor (herald admin webhooks tail)",
        description:
          'Each event is the body a webhook would receive, whether or not the team has a webhook. Events are ' +
          `recorded for this read only while someone reads: each read keeps recording for ${TAIL_OPEN_MS / 1000} s ` +
          '(poll every second or so, with after=nextCursor), and what was recorded is kept a day. Without after: the ' +
          'newest recorded events.',
        params: TeamParams,
        querystring: TailQuery,
        response: { 200: TailPage, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { teamId } = request.params;
      await requireTeam(deps.db, teamId);
      return readEventTail(deps.db, teamId, {
        after: request.query.after ?? null,
        limit: request.query.limit,
        now: deps.clock.now(),
      });
    },
  );
}

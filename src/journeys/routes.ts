// /v1/journeys: the contract's reads and enrolment, and operator.md's create, change, status,
// runs and delete. Another team's journey answers 404 like a missing one.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import { notFound } from '../platform/errors.ts';
import { cursorPage, decodeCursor, encodeCursor } from '../platform/pagination.ts';
import { enroll } from './enroll.ts';
import { changeStatus, createJourney, patchJourney, removeJourney } from './lifecycle.ts';
import { getJourney, listJourneys } from './queries.ts';
import { getStats, listRuns } from './run-queries.ts';
import type { JourneyRow } from './queries.ts';
import * as s from './schemas.ts';
import { journeyView, runView } from './view.ts';

type JourneyDeps = { db: Kysely<Database>; clock: Clock; secrets: Secrets };

const STEPS_DESCRIPTION =
  `steps: ${s.STEPS_MIN} to ${s.STEPS_MAX}, run in order, ids unique. ` +
  '`{id, type: "EMAIL", templateId, from, subject?}` sends the template to the contact with its fields and properties as ' +
  'variables ({{email}}, {{firstName}}, {{lastName}}, each property by its key); ' +
  `\`{id, type: "WAIT", seconds}\` waits 1 to ${s.WAIT_SECONDS_MAX} seconds.`;

/** Journeys with their stats (a primary-key read of journey_stats each), read after the write commits. */
async function views(deps: JourneyDeps, teamId: number, rows: JourneyRow[]) {
  const stats = await getStats(
    deps.db,
    teamId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => journeyView(row, stats.get(row.id)));
}

async function view(deps: JourneyDeps, teamId: number, row: JourneyRow) {
  return (await views(deps, teamId, [row]))[0]!;
}

export function registerJourneyRoutes(app: FastifyInstance, deps: JourneyDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['journeys'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };
  const full = { access: 'full' as const };

  api.get(
    '/v1/journeys',
    {
      config: full,
      schema: { ...common, summary: 'List journeys, newest first', response: { 200: s.Journey.array(), ...errors } },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      return views(deps, teamId, await listJourneys(deps.db, teamId));
    },
  );

  api.post(
    '/v1/journeys',
    {
      config: full,
      schema: {
        ...common,
        summary: 'Create a journey (status DRAFT)',
        description: `${STEPS_DESCRIPTION} The book, segment (of that book) and templates must be the team's; from on a verified domain.`,
        body: s.CreateJourneyBody,
        response: { 201: s.Journey, ...errors },
      },
    },
    async (request, reply) => {
      const { teamId } = principalOf(request);
      const row = await createJourney(deps, teamId, request.body);
      return reply.code(201).send(await view(deps, teamId, row));
    },
  );

  api.get(
    '/v1/journeys/:id',
    {
      config: full,
      schema: {
        ...common,
        summary: 'Read one journey with its stats',
        params: s.JourneyParams,
        response: { 200: s.Journey, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const row = await getJourney(deps.db, teamId, request.params.id);
      if (!row) throw notFound('Journey');
      return view(deps, teamId, row);
    },
  );

  api.patch(
    '/v1/journeys/:id',
    {
      config: full,
      schema: {
        ...common,
        summary: 'Change a journey',
        description: `Any of the create fields; steps only while DRAFT or PAUSED; an ARCHIVED journey cannot change. ${STEPS_DESCRIPTION}`,
        params: s.JourneyParams,
        body: s.UpdateJourneyBody,
        response: { 200: s.Journey, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      return view(deps, teamId, await patchJourney(deps, teamId, request.params.id, request.body));
    },
  );

  api.post(
    '/v1/journeys/:id/status',
    {
      config: full,
      schema: {
        ...common,
        summary: 'Activate, pause or archive a journey',
        description:
          'DRAFT → ACTIVE or ARCHIVED; ACTIVE ⇄ PAUSED; ACTIVE or PAUSED → ARCHIVED (every active run exits with JOURNEY_ARCHIVED). ' +
          'ARCHIVED is final (400). The status it already has: no change.',
        params: s.JourneyParams,
        body: s.StatusBody,
        response: { 200: s.Journey, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      return view(deps, teamId, await changeStatus(deps, teamId, request.params.id, request.body.status));
    },
  );

  api.delete(
    '/v1/journeys/:id',
    {
      config: full,
      schema: {
        ...common,
        summary: 'Delete a DRAFT or ARCHIVED journey and its runs',
        params: s.JourneyParams,
        response: { 200: s.JourneyDeleted, ...errors },
      },
    },
    async (request) => {
      await removeJourney(deps, principalOf(request).teamId, request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  );

  api.post(
    '/v1/journeys/:id/enroll',
    {
      config: { access: 'send' },
      schema: {
        ...common,
        summary: 'Enrol a contact into a journey',
        description:
          "Give contactId or email, not both. By email the contact is found in the journey's book, or added to it. 400: " +
          'neither or both; a journey without a book for an email; the book no longer exists; double opt-in not confirmed; ' +
          'a DRAFT or ARCHIVED journey. 409 NOT_UNIQUE: the contact already has a run; 409 NOT_IN_SEGMENT: the contact is ' +
          'outside the journey segment (an email enrolment still adds the address to the book).',
        params: s.JourneyParams,
        body: s.EnrollBody,
        response: { 201: s.JourneyRun, ...errors, 409: s.ErrorBody },
      },
    },
    async (request, reply) => {
      const run = await enroll(deps, principalOf(request).teamId, request.params.id, request.body ?? {});
      return reply.code(201).send(runView(run));
    },
  );

  api.get(
    '/v1/journeys/:id/runs',
    {
      config: full,
      schema: {
        ...common,
        summary: "List a journey's runs, newest first",
        description: `limit 1 to ${s.RUNS_LIMIT_MAX} (default ${s.RUNS_LIMIT_DEFAULT}); status filters; pass nextCursor back as cursor.`,
        params: s.JourneyParams,
        querystring: s.RunsQuery,
        response: { 200: s.RunList, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { id } = request.params;
      const { status, cursor, limit } = request.query;
      if (!(await getJourney(deps.db, teamId, id))) throw notFound('Journey');
      const list = `journey-runs:${id}:${status ?? ''}`;
      const position = cursor === undefined ? undefined : decodeCursor(deps.secrets, cursor, list, teamId);
      const after =
        position === undefined ? undefined : { createdAt: new Date(String(position[0])), id: String(position[1]) };
      const rows = await listRuns(deps.db, teamId, id, { status, after, limit: limit + 1 });
      const page = cursorPage(rows, limit, (last) =>
        encodeCursor(deps.secrets, list, teamId, [last.created_at.toISOString(), last.id]),
      );
      return { data: page.data.map(runView), nextCursor: page.nextCursor };
    },
  );
}

// Journeys tests' helpers: requests, a team with a book, a template and a verified domain, and a
// runner of the journey-runs queue driven by the test clock.
import { sql } from 'kysely';
import { expect } from 'vitest';
import {
  JOURNEY_ENROLMENTS_QUEUE,
  JOURNEY_RUNS_QUEUE,
  journeyEnrolmentsQueue,
  journeyRunsQueue,
} from '../../src/journeys/index.ts';
import { createLogTransport } from '../../src/adapters/mail-transport/index.ts';
import { emailDeliveryLanes } from '../../src/emails/delivery.ts';
import { BULK_DELIVERY_QUEUE, EMAIL_DELIVERY_QUEUE } from '../../src/emails/index.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import { bearer } from '../support/factory.ts';
import { sessionBounces } from '../../src/feedback/index.ts';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function client(h: EmailHarness, key: string) {
  return async (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, payload?: unknown) => {
    const response = await h.app.inject({
      method,
      url: `/api${path}`,
      headers: bearer(key),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: (response.body ? response.json() : null) as Json };
  };
}

export interface JourneyTeam extends SendingTeam {
  call: ReturnType<typeof client>;
  bookId: string;
  templateId: string;
}

/**
 * The teams each harness made with journeyTeam. Files of one test worker share its database, so
 * runs an earlier file left due or leased stay there; a drain looks only at its own harness's teams.
 */
const harnessTeams = new WeakMap<EmailHarness, number[]>();

export async function journeyTeam(h: EmailHarness, book: Json = {}): Promise<JourneyTeam> {
  const team = await h.team();
  harnessTeams.set(h, [...(harnessTeams.get(h) ?? []), team.id]);
  const call = client(h, team.key);
  const created = await call('POST', '/v1/contactBooks', { name: 'Customers', variables: ['plan'], ...book });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const template = await call('POST', '/v1/templates', {
    name: 'Welcome',
    subject: 'Hi {{firstName}}',
    type: 'TRANSACTIONAL',
    html: '<p>Hello {{firstName}} {{lastName}} on {{plan}} ({{email}})</p>',
  });
  expect(template.status, JSON.stringify(template.body)).toBe(200);
  return { ...team, call, bookId: created.body.id, templateId: template.body.id };
}

export type JourneyRunner = Awaited<ReturnType<typeof startRunner>>;

/** The harness the journeys-*.test.ts files share: two journey teams and a runner; close() stops both. */
export async function startJourneySuite() {
  const h = await startEmailHarness();
  const [team, other] = [await journeyTeam(h), await journeyTeam(h)];
  const runner = await startRunner(h);
  const close = async () => {
    await runner.runner.stop();
    await h.close();
  };
  return { h, team, other, runner, close };
}

export const enrol = (team: JourneyTeam, journeyId: string, body: Json) =>
  team.call('POST', `/v1/journeys/${journeyId}/enroll`, body);
export const readJourney = async (team: JourneyTeam, id: string) => (await team.call('GET', `/v1/journeys/${id}`)).body;
export const readRuns = async (team: JourneyTeam, id: string, query = '') =>
  (await team.call('GET', `/v1/journeys/${id}/runs${query}`)).body;

export function steps(team: JourneyTeam, waitSeconds = 3600): Json[] {
  return [
    { id: 'welcome', type: 'EMAIL', templateId: team.templateId, from: team.from() },
    { id: 'pause', type: 'WAIT', seconds: waitSeconds },
    { id: 'followup', type: 'EMAIL', templateId: team.templateId, from: team.from(), subject: 'Again, {{firstName}}' },
  ];
}

export async function makeJourney(team: JourneyTeam, fields: Json = {}, status?: string): Promise<Json> {
  const created = await team.call('POST', '/v1/journeys', {
    name: 'Onboarding',
    triggerType: 'API',
    contactBookId: team.bookId,
    steps: steps(team),
    ...fields,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (status === undefined) return created.body;
  const changed = await team.call('POST', `/v1/journeys/${created.body.id}/status`, { status });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  return changed.body;
}

export async function addContact(team: JourneyTeam, fields: Json): Promise<string> {
  const created = await team.call('POST', `/v1/contactBooks/${team.bookId}/contacts`, fields);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.contactId;
}

/**
 * The journey queues and, unless the test delivers through a relay of its own (`delivery: false`),
 * the email delivery queue over the log transport: a run's EMAIL step is done when its email is sent.
 */
export async function startRunner(h: EmailHarness, options: { delivery?: boolean } = {}) {
  const delivery =
    options.delivery === false
      ? []
      : emailDeliveryLanes({
          secrets: h.t.deps.secrets,
          publicUrl: h.t.deps.config.publicUrl,
          transport: createLogTransport(() => {}),
          mailDomain: h.t.deps.config.mailDomain,
          bounces: sessionBounces,
        });
  const runner = new QueueRunner({
    database: h.t.deps.database,
    queues: [journeyRunsQueue(), journeyEnrolmentsQueue(), ...delivery],
    clock: h.t.clock,
    pollMs: 50,
  });
  await runner.start();
  return {
    runner,
    /**
     * Lets the runner take every run due now, and waits until none of the harness's teams' runs is
     * left due or held. idle() alone is not enough with two slots: one slot's empty claim can answer
     * while the other still works.
     */
    async drain() {
      // A deadline, not a count of rounds: on a loaded machine (CI runs many files side by side) a
      // turn's first send can take seconds.
      const deadline = Date.now() + 30_000;
      for (;;) {
        runner.notify(JOURNEY_RUNS_QUEUE);
        runner.notify(JOURNEY_ENROLMENTS_QUEUE);
        runner.notify(EMAIL_DELIVERY_QUEUE);
        runner.notify(BULK_DELIVERY_QUEUE);
        await runner.idle();
        // Runs due or held, and the emails they wait for (a run is taken again once they are sent).
        const teams = harnessTeams.get(h) ?? [];
        const now = h.t.clock.now();
        const { rows } = await sql<{ n: number }>`SELECT (SELECT count(*)::integer FROM journey_runs r
          WHERE r.team_id = ANY(${teams}::integer[])
            AND (r.lease_until IS NOT NULL OR (r.status = 'ACTIVE' AND r.next_run_at <= ${now}::timestamptz
              AND EXISTS (SELECT 1 FROM journeys j WHERE j.id = r.journey_id AND j.status = 'ACTIVE'))))
          + (SELECT count(*)::integer FROM emails e WHERE e.team_id = ANY(${teams}::integer[])
            AND e.status IN ('QUEUED', 'SCHEDULED') AND e.run_at <= ${now}::timestamptz) AS n`.execute(h.t.deps.db);
        if (rows[0]!.n === 0) return;
        if (Date.now() > deadline) throw new Error(`journey runs were not drained: ${rows[0]!.n} still due or held`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

/** A webhook of the team subscribed to the journey events; answers the events' data as recorded. */
export async function journeyWebhook(
  h: EmailHarness,
  teamId: number,
  eventTypes = ['journey.run.completed', 'journey.run.exited'],
) {
  const now = h.t.clock.now();
  await h.t.deps.db
    .insertInto('webhooks')
    .values({
      id: `wh_journeys_${teamId}`,
      team_id: teamId,
      url: 'https://hooks.example.test/journeys',
      description: null,
      status: 'ACTIVE',
      event_types: eventTypes,
      domain_ids: [],
      api_version: null,
      secret_sealed: h.t.deps.secrets.encrypt('whsec_test'),
      secret_hint: 'whsec_…test',
      created_at: now,
      updated_at: now,
    } as never)
    .execute();
  return async (type: string): Promise<Json[]> => {
    const calls = await h.t.deps.db
      .selectFrom('webhook_calls')
      .select('payload')
      .where('team_id', '=', teamId)
      .where('type', '=', type)
      .execute();
    return calls.map((c) => (typeof c.payload === 'string' ? JSON.parse(c.payload) : c.payload).data as Json);
  };
}

// The journeys benchmark's first target (bench/journeys.ts): the journey-runs queue moving runs due
// on an EMAIL step on to their WAIT, beside its baseline, the email-delivery queue draining as many
// plain QUEUED emails to the log transport.
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.ts';
import type { Deps } from '../../src/deps.ts';
import { queueEmails } from '../../src/emails/index.ts';
import { journeyRunsQueue } from '../../src/journeys/index.ts';
import { systemPrincipal } from '../../src/platform/auth/system-principal.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { call, type BenchTeam } from './bench-team.ts';
import { count, drain } from './drain.ts';
import { emailDeliveryRunner } from '../email-delivery/runner.ts';

export interface RunsBench {
  deps: Deps;
  app: FastifyInstance;
  config: Pick<Config, 'publicUrl' | 'mailDomain'>;
  /** The teams the runs and emails are spread over, PER_TEAM each (the last one the rest). */
  teams: BenchTeam[];
  runs: number;
  perTeam: number;
}

/** Seconds the runner took to move every run on; checks afterwards that each did, then removes them. */
export async function runnerRound(bench: RunsBench): Promise<number> {
  const { deps, app, teams, runs: RUNS } = bench;
  const share = (i: number) => Math.min(bench.perTeam, RUNS - i * bench.perTeam);
  const journeyIds: string[] = [];
  for (const [i, team] of teams.entries()) {
    await sql`DELETE FROM team_daily_usage WHERE team_id = ${team.id}`.execute(deps.db);
    const book = await call(app, team, 'POST', '/v1/contactBooks', { name: 'Runs', variables: ['plan'] });
    const journey = await call(app, team, 'POST', '/v1/journeys', {
      name: 'Welcome',
      triggerType: 'API',
      contactBookId: book.id,
      steps: [
        { id: 'welcome', type: 'EMAIL', templateId: team.templateId, from: team.from },
        { id: 'wait', type: 'WAIT', seconds: 86_400 },
      ],
    });
    await call(app, team, 'POST', `/v1/journeys/${journey.id}/status`, { status: 'ACTIVE' });
    journeyIds.push(journey.id);
    const now = new Date();
    await sql`INSERT INTO contacts (id, team_id, contact_book_id, email, first_name, subscribed, properties, confirmed_at, created_at, updated_at)
      SELECT herald_new_id('ct_', ${now}::timestamptz), ${team.id}::integer, ${book.id}::text, 'reader-' || g || '@example.test',
             'Reader ' || g, true, '{"plan":"pro"}'::jsonb, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      FROM generate_series(1, ${share(i)}::integer) g`.execute(deps.db);
    await sql`INSERT INTO journey_runs (id, team_id, journey_id, contact_id, status, next_run_at, created_at, updated_at)
      SELECT herald_new_id('jrun_', ${now}::timestamptz), team_id, ${journey.id}::text, id, 'ACTIVE', ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      FROM contacts WHERE team_id = ${team.id}::integer AND contact_book_id = ${book.id}::text`.execute(deps.db);
    await sql`UPDATE journey_stats SET enrolled = ${share(i)}::integer, active = ${share(i)}::integer WHERE journey_id = ${journey.id}::text`.execute(
      deps.db,
    );
  }
  await sql`ANALYZE journey_runs`.execute(deps.db);
  const runner = new QueueRunner({
    database: deps.database,
    queues: [journeyRunsQueue()],
    clock: deps.clock,
    pollMs: 50,
  });
  const started = performance.now();
  await runner.start();
  await drain(runner, 'journey-runs', () =>
    count(
      deps,
      sql<{
        n: string;
      }>`SELECT count(*) AS n FROM journey_runs WHERE journey_id = ANY (${journeyIds}::text[]) AND current_step_index = 0`,
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  await runner.stop();
  const moved = await count(
    deps,
    sql<{
      n: string;
    }>`SELECT count(*) AS n FROM journey_runs WHERE journey_id = ANY (${journeyIds}::text[]) AND current_step_index = 2 AND status = 'ACTIVE'`,
  );
  const sent = await count(
    deps,
    sql<{
      n: string;
    }>`SELECT coalesce(sum((sent_by_step ->> 'welcome')::integer), 0) AS n FROM journey_stats WHERE journey_id = ANY (${journeyIds}::text[])`,
  );
  if (moved !== RUNS || sent !== RUNS)
    throw new Error(`runner round: ${moved} runs moved on, ${sent} emails counted, of ${RUNS}`);
  // The queued emails would be delivered by the baseline's worker: they go with their runs.
  await sql`DELETE FROM emails WHERE team_id = ANY (${teams.map((t) => t.id)}::integer[])`.execute(deps.db);
  await sql`DELETE FROM journeys WHERE id = ANY (${journeyIds}::text[])`.execute(deps.db);
  await sql`DELETE FROM contact_books WHERE team_id = ANY (${teams.map((t) => t.id)}::integer[])`.execute(deps.db);
  return seconds;
}

/** Seconds the email-delivery queue took to send as many emails, stored through queueEmails beforehand. */
export async function deliveryRound(bench: RunsBench): Promise<number> {
  const { deps, config, teams } = bench;
  const share = (i: number) => Math.min(bench.perTeam, bench.runs - i * bench.perTeam);
  const now = new Date();
  for (const [i, team] of teams.entries()) {
    await sql`DELETE FROM team_daily_usage WHERE team_id = ${team.id}`.execute(deps.db);
    for (let start = 0; start < share(i); start += 100) {
      const inputs = Array.from({ length: Math.min(100, share(i) - start) }, (_, k) => ({
        from: team.from,
        to: `reader-${start + k}@example.test`,
        templateId: team.templateId,
        variables: { firstName: `Reader ${start + k}`, plan: 'pro' },
      }));
      await deps.db
        .transaction()
        .execute((tx) => queueEmails(tx, systemPrincipal(team.id, 'journey'), inputs, { now, batch: true }));
    }
  }
  const runner = emailDeliveryRunner(config, deps, deps.mailTransport);
  const ids = teams.map((t) => t.id);
  const started = performance.now();
  await runner.start();
  await drain(runner, 'email-delivery', () =>
    count(
      deps,
      sql<{
        n: string;
      }>`SELECT count(*) AS n FROM emails WHERE team_id = ANY (${ids}::integer[]) AND status = 'QUEUED'`,
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  await runner.stop();
  await sql`DELETE FROM emails WHERE team_id = ANY (${ids}::integer[])`.execute(deps.db);
  await sql`DELETE FROM outbox WHERE created_at >= ${now}::timestamptz`.execute(deps.db).catch(() => undefined);
  return seconds;
}

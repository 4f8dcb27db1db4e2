// One Herald run of the direct delivery benchmark (bench/direct-delivery.ts): the emails seeded QUEUED
// through the API, then one worker on fresh deps (the direct transport) delivers them all.
import { sql } from 'kysely';
import { buildDeps } from '../../src/build-deps.ts';
import { emailDeliveryQueue } from '../../src/emails/delivery.ts';
import { sessionBounces } from '../../src/feedback/index.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { EMAILS, HTML, recipient, SEED_BATCH, SUBJECT, type Order } from './settings.ts';
import type { Bench } from './setup.ts';
import type { RunFigures } from './sink.ts';

/** Herald: EMAILS queued through the API, then one worker on fresh deps delivers them all. */
export async function heraldRun(bench: Bench, order: Order, round: number): Promise<RunFigures> {
  const { app, authorization, config, deps, from, logger, team, timed } = bench;
  const run = `herald-${order}-${round}`;
  await sql`DELETE FROM team_daily_usage WHERE team_id = ${team.id}`.execute(deps.db);
  for (let start = 0; start < EMAILS; start += SEED_BATCH) {
    const payload = Array.from({ length: Math.min(SEED_BATCH, EMAILS - start) }, (_, i) => ({
      from,
      to: recipient(run, order, start + i),
      subject: SUBJECT,
      html: HTML,
    }));
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/emails/batch',
      headers: { authorization },
      payload,
    });
    if (response.statusCode !== 200) throw new Error(`seeding answered ${response.statusCode}: ${response.body}`);
  }
  // What `herald worker` builds from the configuration: the direct transport and its DNS resolver.
  const workerDeps = await buildDeps(config, { logger, database: deps.database });
  const runner = new QueueRunner({
    database: deps.database,
    queues: [
      emailDeliveryQueue({
        secrets: workerDeps.secrets,
        publicUrl: config.publicUrl,
        transport: workerDeps.mailTransport,
        mailDomain: config.mailDomain,
        bounces: sessionBounces,
      }),
    ],
    pollMs: 50,
  });
  if (workerDeps.mailTransport.kind !== 'direct') throw new Error('the worker is not on the direct transport');
  const stop = async () => {
    await runner.stop();
    await workerDeps.close();
  };
  let figures: RunFigures;
  try {
    figures = await timed(run, () => runner.start(), stop);
  } catch (error) {
    await stop();
    // What became of the emails says why the sink did not get them.
    const states = await sql<{ status: string; error: string | null; n: string }>`
        SELECT status, left(last_error, 200) AS error, count(*) AS n FROM emails
        WHERE team_id = ${team.id} AND "to" #>> '{}' LIKE ${`${run}-%`} GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 5`.execute(
      deps.db,
    );
    const summary = states.rows.map((r) => `${r.n} ${r.status}${r.error ? ` (${r.error})` : ''}`).join('; ');
    throw new Error(`${(error as Error).message}; the emails: ${summary}`, { cause: error });
  }
  const delivered = await sql<{ n: string }>`
      SELECT count(*) AS n FROM emails WHERE team_id = ${team.id} AND status = 'DELIVERED' AND "to" #>> '{}' LIKE ${`${run}-%`}`.execute(
    deps.db,
  );
  if (Number(delivered.rows[0]!.n) !== EMAILS)
    throw new Error(`${run}: ${delivered.rows[0]!.n} of ${EMAILS} emails are DELIVERED`);
  return figures;
}

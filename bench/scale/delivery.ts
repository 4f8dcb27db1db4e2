// Email delivery from a backlog, as bench/email-delivery.ts measures it: one QueueRunner with the
// email-delivery queue (batch 20, concurrency 2) in the parent on core 0, the smtp relay transport
// pointed at the SMTP sink (its own process on core 1), DKIM-signing each email with the domain's
// key. The backlog is one email sent through the API, copied set-based in the current month (the
// same columns, recipient row and QUEUED event as the app's), each copy to its own address; a round
// times from the runner's start until the sink has accepted `deliveries` messages.
import { sql } from 'kysely';
import type { Config } from '../../src/config.ts';
import type { Deps } from '../../src/deps.ts';
import type { DeliveryTeam } from '../delivery-team.ts';
import { sinkDeliveryRunner } from '../email-delivery/runner.ts';
import { expectMessages } from '../email-delivery/sink.ts';
import type { ChildProcess } from 'node:child_process';
import { median } from '../measure.ts';
import { HTML } from './generate.ts';

export const DELIVERY_ROUNDS = 3;

/** Stores `n` QUEUED emails in the current month, copies of one the API stored; one transaction. */
export async function queueBacklog(deps: Deps, team: DeliveryTeam, n: number, label: string): Promise<number> {
  const started = performance.now();
  const sent = await team.app.inject({
    method: 'POST',
    url: '/api/v1/emails',
    headers: { authorization: team.authorization },
    payload: { from: team.from, to: `reader-${label}@example.test`, subject: 'Your weekly summary', html: HTML },
  });
  if (sent.statusCode !== 200) throw new Error(`the template email answered ${sent.statusCode}: ${sent.body}`);
  const templateId = (sent.json() as { emailId: string }).emailId;
  await deps.db.transaction().execute(async (tx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(tx);
    await sql`CREATE TEMP TABLE bench_backlog ON COMMIT DROP AS
      SELECT g, herald_new_id('em_', at) AS id, at, 'reader-' || ${label} || '-' || g || '@example.test' AS address
      FROM (SELECT g, now() - (${n}::int - g) * interval '1 microsecond' AS at
            FROM generate_series(1, ${n}::int) AS g) AS x`.execute(tx);
    // Every column of the template but the id, times and addressee.
    const { rows } = await sql<{ columns: string }>`
      SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) AS columns FROM pg_attribute
      WHERE attrelid = 'emails'::regclass AND attnum > 0 AND NOT attisdropped
        AND attname NOT IN ('id', 'to', 'created_at', 'updated_at', 'run_at')`.execute(tx);
    const columns = sql.raw(rows[0]!.columns);
    await sql`INSERT INTO emails (id, "to", created_at, updated_at, run_at, ${columns})
      SELECT b.id, CASE jsonb_typeof(t."to") WHEN 'array' THEN jsonb_build_array(b.address) ELSE to_jsonb(b.address) END,
        b.at, b.at, b.at, ${sql.raw(rows[0]!.columns.replace(/(^|, )/g, '$1t.'))}
      FROM bench_backlog b CROSS JOIN emails t WHERE t.id = ${templateId} ORDER BY b.id`.execute(tx);
    await sql`INSERT INTO email_recipients (team_id, address, email_id)
      SELECT ${team.team.id}::int, b.address, b.id FROM bench_backlog b ORDER BY b.id`.execute(tx);
    await sql`INSERT INTO email_events (team_id, email_id, status, data, created_at)
      SELECT e.team_id, b.id, e.status, e.data, b.at
      FROM bench_backlog b CROSS JOIN email_events e WHERE e.email_id = ${templateId} ORDER BY b.id`.execute(tx);
    await sql`SET LOCAL session_replication_role = origin`.execute(tx);
    await sql`DELETE FROM emails WHERE id = ${templateId}`.execute(tx);
  });
  await sql`ANALYZE emails`.execute(deps.db);
  return (performance.now() - started) / 1000;
}

/** One round: a runner delivers until the sink has `deliveries` messages; seconds from its start. */
async function deliveryRound(
  config: Config,
  deps: Deps,
  sink: { child: ChildProcess; url: string },
  team: DeliveryTeam,
  deliveries: number,
): Promise<number> {
  const { runner, transport } = sinkDeliveryRunner(config, deps, sink.url);
  const { received, dkim } = expectMessages(sink.child, deliveries, team.dkimKey);
  const started = performance.now();
  await runner.start();
  const seconds = ((await received) - started) / 1000;
  await runner.stop();
  await transport.close();
  const results = await dkim;
  if (results.some((r) => r !== 'pass')) throw new Error(`DKIM: ${results.join(', ')}`);
  return seconds;
}

export interface DeliveryFigures {
  backlog: number;
  deliveries: number;
  perSecond: number;
  backlogSeconds: number;
}

/**
 * Small: DELIVERY_ROUNDS rounds, each queueing `backlog` emails and delivering them all. Large: the
 * backlog queued once, then DELIVERY_ROUNDS rounds of `deliveries` each from what is left.
 */
export async function measureDelivery(
  config: Config,
  deps: Deps,
  sink: { child: ChildProcess; url: string },
  team: DeliveryTeam,
  o: { backlog: number; deliveries: number; label: string },
): Promise<DeliveryFigures> {
  const drain = o.deliveries >= o.backlog;
  let backlogSeconds = 0;
  const rates: number[] = [];
  for (let round = 0; round < DELIVERY_ROUNDS; round++) {
    if (drain || round === 0) backlogSeconds += await queueBacklog(deps, team, o.backlog, `${o.label}-${round}`);
    const seconds = await deliveryRound(config, deps, sink, team, o.deliveries);
    rates.push(o.deliveries / seconds);
    console.log(`  round ${round + 1}: ${o.deliveries} delivered in ${seconds.toFixed(2)} s`);
  }
  return { backlog: o.backlog, deliveries: o.deliveries, perSecond: median(rates), backlogSeconds };
}

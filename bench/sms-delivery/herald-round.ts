// One Herald round of the SMS delivery benchmark: messages stored `queued` while no worker runs, then
// a QueueRunner with the sms-delivery queue sending them through the twilio adapter to the fake (or,
// for the breakdown, a provider that answers at once without HTTP).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import type { SmsProvider } from '../../src/adapters/sms-provider/index.ts';
import type { buildDeps } from '../../src/build-deps.ts';
import { BENCH_DATABASE_URL } from '../database.ts';
import { BENCH_SECRET } from '../herald-app.ts';
import { removeTeams } from '../remove-teams.ts';
import { measureCpu, type RoundResult } from './cpu.ts';
import { MESSAGES, SID, TEXT, TOKEN, WARM_UP } from './settings.ts';

/**
 * The breakdown round's provider: accepts every message at once, without HTTP, so that the round
 * measures what the worker and PostgreSQL spend on the queue alone.
 */
export function instantProvider(): SmsProvider {
  let sent = 0;
  return {
    kind: 'twilio',
    deliveryReports: 'reports',
    send: async () => ({ kind: 'accepted', providerMessageId: `SM${randomUUID().replaceAll('-', '')}${++sent}` }),
    verifyCallback: () => false,
    parseReports: () => [],
    close: async () => {},
  };
}

type Deps = Awaited<ReturnType<typeof buildDeps>>;

/** Stores `count` messages of a new team `queued` with their rows in the delivery queue; answers the team. */
async function storeQueued(deps: Deps, name: string, count: number): Promise<number> {
  const { createTeam } = await import('../../src/accounts/index.ts');
  const { newId } = await import('../../src/platform/ids.ts');
  const now = new Date();
  const team = await createTeam(deps.db, { name }, now);
  const rows = Array.from({ length: count }, (_, i) => {
    const to = `+1415555${String(i % 10000).padStart(4, '0')}`;
    return {
      id: newId('sms_', now),
      team_id: team.id,
      api_key_id: null,
      to_number: to,
      to_prefix: to.slice(0, -4),
      country: 'US',
      sender_id: 'Herald',
      body: TEXT,
      encoding: 'GSM-7' as const,
      segments: 1,
      currency: 'USD',
      charge_minor: 1n,
      charge_transaction_id: null,
      status: 'queued' as const,
      reason_code: null,
      reason_message: null,
      provider: null,
      provider_message_id: null,
      client_ip_hash: null,
      risk_score: 0,
      sent_at: null,
      delivered_at: null,
      created_at: now,
      updated_at: now,
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    await deps.db
      .with('stored', (w) => w.insertInto('sms_messages').values(rows.slice(i, i + 500)))
      .insertInto('sms_deliveries')
      .values(
        rows.slice(i, i + 500).map((row) => ({
          sms_id: row.id,
          team_id: team.id,
          created_at: now,
          next_attempt_at: now,
          to_number: row.to_number,
          sender_id: row.sender_id,
          body: row.body,
          charge_transaction_id: null,
        })),
      )
      .execute();
  return team.id;
}

/**
 * Runs a worker until the `count` messages of `teamId` are sent: answers the time and CPU from its
 * start to the moment it found nothing more due.
 */
async function deliverAll(
  deps: Deps,
  provider: SmsProvider,
  teamId: number,
  count: number,
  fakePid: number,
): Promise<RoundResult> {
  const { QueueRunner } = await import('../../src/queue/index.ts');
  const { smsDeliveryQueue } = await import('../../src/sms/index.ts');
  const runner = new QueueRunner({
    database: deps.database,
    queues: [smsDeliveryQueue({ provider })],
    clock: deps.clock,
    pollMs: 1000,
  });
  const cpu = measureCpu(fakePid);
  const started = performance.now();
  await runner.start();
  runner.notify('sms-delivery');
  let sent = 0;
  let result: RoundResult | null = null;
  while (sent < count) {
    await runner.idle();
    // The worker has handled everything due: the round ends here, and the count below is the
    // benchmark's check that every message is sent, not the worker's work. Measured before the pool
    // closes: a PostgreSQL backend's CPU time goes with it.
    result = { seconds: (performance.now() - started) / 1000, cpu: cpu.per(count) };
    const counted = await deps.db
      .selectFrom('sms_messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('team_id', '=', teamId)
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    sent = Number(counted.n);
    if (sent < count) runner.notify('sms-delivery');
  }
  await runner.stop();
  return result!;
}

export async function heraldRound(
  fakeUrl: string,
  fakePid: number,
  round: number,
  http: boolean,
): Promise<RoundResult> {
  const { loadConfig } = await import('../../src/config.ts');
  const { buildDeps } = await import('../../src/build-deps.ts');
  const { migrate } = await import('../../src/db/migrate.ts');
  const { createTwilioProvider } = await import('../../src/adapters/sms-provider/index.ts');
  const config = { ...loadConfig({}), databaseUrl: BENCH_DATABASE_URL, secret: BENCH_SECRET, adminToken: null };
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  await migrate(deps.database);
  const provider = http
    ? createTwilioProvider({
        accountSid: SID,
        authToken: TOKEN,
        apiUrl: fakeUrl,
        statusCallbackUrl: 'http://127.0.0.1:1/hooks/sms/twilio',
      })
    : instantProvider();
  const name = `bench-sms-delivery-${round}${http ? '' : '-instant'}`;
  const warmUp = await storeQueued(deps, `${name}-warm-up`, WARM_UP);
  await deliverAll(deps, provider, warmUp, WARM_UP, fakePid);
  // Each round's messages meet vacuumed tables: the dead rows of earlier rounds and runs (their
  // messages are deleted with their team) would otherwise make the figure depend on when
  // autovacuum last ran.
  await sql`VACUUM (ANALYZE) sms_messages, sms_deliveries, sms_provider_ids`.execute(deps.db);
  const team = await storeQueued(deps, name, MESSAGES);
  // Statistics that know the queued messages, as a running deployment's would: planned against the
  // empty tables the VACUUM left, claims and outcome writes could scan every queued message.
  await sql`ANALYZE sms_messages, sms_deliveries`.execute(deps.db);
  const result = await deliverAll(deps, provider, team, MESSAGES, fakePid);
  await provider.close();
  // A team's messages take their queue rows and provider ids with them only through deleteSmsOfTeam.
  const { deleteSmsOfTeam } = await import('../../src/sms/index.ts');
  for (const id of [warmUp, team]) await deleteSmsOfTeam(deps.db, id);
  await removeTeams(deps.db, 'id = ANY($1::int[])', [[warmUp, team]]);
  await deps.close();
  return result;
}

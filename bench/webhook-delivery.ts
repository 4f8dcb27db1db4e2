// Webhook delivery throughput: calls/s from PENDING to answered 200 by a loopback HTTPS receiver
// (test/support/https-receiver.ts, its own process pinned to core 1, with the loopback DNS server)
// by one worker's webhook-delivery lane, beside a bare undici loop in the same run: the same number
// of POSTs of the same body, over the same TLS (test CA), with as many in flight as the lane gives
// one webhook (PER_WEBHOOK). Then recovery: the receiver answers 503 for a while, comes back, and
// every call must be delivered exactly once (counted by webhook-id at the receiver).
// Run: npm exec -- node bench/webhook-delivery.ts   (BENCH_DATABASE_URL; BENCH_CALLS, default 3000)
//
// The receivers' process and its IPC: bench/webhook-delivery/receiver.ts.
import { Agent, request } from 'undici';
import pino from 'pino';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { median, pinToCoreZero, startPinnedChild } from './measure.ts';
import { cpuSince, postgresCpu, processCpuMicros } from './proc-cpu.ts';
import { removeTeams } from './remove-teams.ts';
import { machineLine, writeSection } from './results.ts';
import { BENCH_SECRET } from './herald-app.ts';
import { HOST, receiverMain, waitFor } from './webhook-delivery/receiver.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const RECOVERY_CALLS = 500;
const ROUNDS = 3;
// A realistic event body (an email.delivered payload is about this size).
const BODY = JSON.stringify({
  type: 'email.delivered',
  createdAt: new Date().toISOString(),
  data: {
    emailId: 'em_01hx0000000000000000000000',
    domainId: 1,
    status: 'DELIVERED',
    from: 'Acme <hello@acme.example>',
    to: ['reader@example.net'],
    subject: 'Your weekly summary',
    emailCreatedAt: new Date().toISOString(),
    details: { response: '250 2.0.0 Ok: queued as 4Bx9' },
  },
});

// ---- the parent: Herald's lane and the bare loop, on core 0 ----

async function main(): Promise<void> {
  pinToCoreZero();
  await ensureDatabase(BENCH_DATABASE_URL);
  const { sql } = await import('kysely');
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/build-deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { createTeam } = await import('../src/accounts/index.ts');
  const { QueueRunner } = await import('../src/queue/index.ts');
  const { WebhookDispatcher, PER_WEBHOOK } = await import('../src/webhooks/dispatcher.ts');
  const { createWebhookAgent } = await import('../src/webhooks/http-agent.ts');
  const { newSigningSecret, secretHint } = await import('../src/webhooks/signing.ts');
  const { ManualClock } = await import('../src/platform/clock.ts');

  const { child, info } = await startPinnedChild<{ fast: number; recovery: number; dns: string; caFile: string }>(
    import.meta.filename,
    ['receiver'],
  );
  const config = {
    ...loadConfig({}),
    databaseUrl: BENCH_DATABASE_URL,
    secret: BENCH_SECRET,
    adminToken: null,
    dnsServers: [info.dns],
    webhookAllowCidrs: ['127.0.0.0/8'],
    webhookCaFile: info.caFile,
  };
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  try {
    await migrate(deps.database);
    await removeTeams(deps.db, "name = 'bench-webhook-delivery'");
    const pending = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM webhook_calls WHERE status IN ('PENDING', 'IN_PROGRESS')`.execute(deps.db);
    if (Number(pending.rows[0]!.n) > 0)
      throw new Error(`${pending.rows[0]!.n} other webhook calls are pending in ${BENCH_DATABASE_URL}`);
    const now = new Date();
    const team = await createTeam(deps.db, { name: 'bench-webhook-delivery', plan: 'pro' }, now);
    const secret = newSigningSecret();
    const addWebhook = async (port: number) => {
      const id = `wh_bench_${port}`;
      await deps.db
        .insertInto('webhooks')
        .values({
          id,
          team_id: team.id,
          url: `https://${HOST}:${port}/hook`,
          description: null,
          status: 'ACTIVE',
          event_types: [],
          domain_ids: [],
          api_version: null,
          secret_sealed: deps.secrets.encrypt(secret),
          secret_hint: secretHint(secret),
          consecutive_failures: 0,
          failing_since: null,
          last_failure_at: null,
          last_success_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return id;
    };
    const fastHook = await addWebhook(info.fast);
    const recoveryHook = await addWebhook(info.recovery);
    const seed = (webhookId: string, count: number, at: Date) =>
      sql`
      INSERT INTO webhook_calls (id, team_id, webhook_id, type, payload, status, attempt, next_attempt_at, created_at, updated_at)
      SELECT herald_new_id('msg_', ${at}::timestamptz), ${team.id}::int, ${webhookId}, 'email.delivered', ${BODY}, 'PENDING', 0, ${at}, ${at}, ${at}
      FROM generate_series(1, ${count}::int)`.execute(deps.db);

    const lane = (clock = deps.clock) => {
      const agent = createWebhookAgent({
        dns: deps.dns,
        allowCidrs: config.webhookAllowCidrs,
        caFile: config.webhookCaFile,
      });
      const dispatcher = new WebhookDispatcher({
        db: deps.db,
        clock,
        secrets: deps.secrets,
        transport: agent,
        logger: deps.logger,
        pollMs: 50,
      });
      return new QueueRunner({ database: deps.database, lanes: [dispatcher], clock, pollMs: 50 });
    };

    /** CPU microseconds per call: this process (lane or loop), the receivers' and PostgreSQL's. */
    type Cpu = { own: number; receiver: number; postgres: number };
    /** Starts counting CPU time; the function returned stops and answers it per call. */
    const cpuMeter = (): (() => Cpu) => {
      const own = process.cpuUsage();
      const receiver = processCpuMicros(child.pid!);
      const postgres = postgresCpu();
      return () => {
        const used = process.cpuUsage(own);
        return {
          own: (used.user + used.system) / CALLS,
          receiver: (processCpuMicros(child.pid!) - receiver) / CALLS,
          postgres: cpuSince(postgres, postgresCpu()) / CALLS,
        };
      };
    };
    const bareCpu: Cpu[] = [];
    const heraldCpu: Cpu[] = [];

    const seedHeraldRound = async () => {
      // Earlier rounds' rows, dead on a server whose autovacuum is off, would weigh on this one's
      // claims and writes; a running deployment's autovacuum and statistics chore keep them away.
      await sql`VACUUM webhook_calls`.execute(deps.db);
      await seed(fastHook, CALLS, new Date());
      await sql`ANALYZE webhook_calls`.execute(deps.db);
    };
    const heraldRound = async (): Promise<number> => {
      const runner = lane();
      const received = waitFor(child, { expect: CALLS, mode: 'up', server: 'fast' });
      const stopMeter = cpuMeter();
      const started = performance.now();
      await runner.start();
      await received;
      const seconds = (performance.now() - started) / 1000;
      // The outcomes written too: part of each call's cost.
      await runner.idle();
      heraldCpu.push(stopMeter());
      await runner.stop();
      const delivered = await sql<{
        n: string;
      }>`SELECT count(*) AS n FROM webhook_calls WHERE webhook_id = ${fastHook} AND status = 'DELIVERED'`.execute(
        deps.db,
      );
      if (Number(delivered.rows[0]!.n) !== CALLS)
        throw new Error(`${delivered.rows[0]!.n} of ${CALLS} calls are DELIVERED`);
      await sql`DELETE FROM webhook_calls WHERE webhook_id = ${fastHook}`.execute(deps.db);
      return seconds;
    };

    const bareRound = async (): Promise<number> => {
      const { readFileSync } = await import('node:fs');
      const tls = await import('node:tls');
      // One secure context for all connections, as Herald's agent has (building one per connection
      // from the root store would slow the baseline down).
      const secureContext = tls.createSecureContext({
        ca: [...tls.rootCertificates, readFileSync(info.caFile, 'utf8')],
      });
      const agent = new Agent({
        connect: { secureContext, lookup: (_h, _o, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]) },
      });
      const url = `https://${HOST}:${info.fast}/hook`;
      const received = waitFor(child, { expect: CALLS, mode: 'up', server: 'fast' });
      const stopMeter = cpuMeter();
      const started = performance.now();
      let next = 0;
      const loop = async () => {
        while (next++ < CALLS) {
          const response = await request(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: BODY,
            dispatcher: agent,
          });
          await response.body.text();
        }
      };
      await Promise.all(Array.from({ length: PER_WEBHOOK }, loop));
      await received;
      const seconds = (performance.now() - started) / 1000;
      bareCpu.push(stopMeter());
      await agent.close();
      return seconds;
    };

    const bare: number[] = [];
    const herald: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await bareRound());
      await seedHeraldRound();
      herald.push(await heraldRound());
    }
    const cpuCells = (cpus: Cpu[]) =>
      (['own', 'receiver', 'postgres'] as const)
        .map((k) => `${Math.round(median(cpus.map((c) => c[k])))} µs`)
        .join(' | ');

    // Recovery: the receiver answers 503 to the first attempt of every call and to the retry 5 s
    // later; then it is back and the clock passes the next step of the schedule (5 min).
    const clock = new ManualClock(new Date());
    await seed(recoveryHook, RECOVERY_CALLS, clock.now());
    const runner = lane(clock);
    const firstFailures = waitFor(child, { expect: RECOVERY_CALLS, mode: 'down', server: 'recovery' });
    await runner.start();
    await firstFailures;
    await runner.idle();
    const secondFailures = waitFor(child, { expect: RECOVERY_CALLS, mode: 'down', server: 'recovery' });
    clock.advance(7_000);
    runner.wake();
    await secondFailures;
    await runner.idle();
    const back = waitFor(child, { expect: RECOVERY_CALLS, mode: 'up', server: 'recovery' });
    clock.advance(7 * 60_000);
    runner.wake();
    await back;
    await runner.idle();
    await runner.stop();
    const report = (await waitFor(child, { report: true })) as { unique: number; ok: number; total: number };
    const states = await sql<{
      status: string;
      n: string;
    }>`SELECT status, count(*) AS n FROM webhook_calls WHERE webhook_id = ${recoveryHook} GROUP BY status`.execute(
      deps.db,
    );
    const delivered = Number(states.rows.find((r) => r.status === 'DELIVERED')?.n ?? 0);

    const bareSeconds = median(bare);
    const heraldSeconds = median(herald);
    const perSecond = (seconds: number) => Math.round(CALLS / seconds).toLocaleString('en-US');
    const ratio = bareSeconds / heraldSeconds;
    const recovered = report.unique === RECOVERY_CALLS && report.ok === RECOVERY_CALLS && delivered === RECOVERY_CALLS;
    const body = [
      '## Webhook delivery (calls)',
      '',
      `\`npm exec -- node bench/webhook-delivery.ts\`: ${CALLS.toLocaleString('en-US')} calls of a ${BODY.length}-byte event per round to one webhook, timed until the loopback HTTPS receiver (its own process pinned to core 1, with the loopback DNS server) has answered them all 200; median of ${ROUNDS} alternating rounds. ` +
        `Herald: calls seeded PENDING in PostgreSQL (the table vacuumed before and analysed after), then one worker's webhook-delivery lane (a QueueRunner) claims them (${PER_WEBHOOK} in flight per webhook), resolves and checks the host over DNS before every delivery (one check per host shared only among the calls of one claimed batch), signs each (Standard Webhooks HMAC-SHA256), POSTs it over keep-alive TLS to the checked address and writes each outcome back; every call is checked DELIVERED afterwards. ` +
        `Baseline: a bare undici loop, ${PER_WEBHOOK} in flight, POSTing the same body over the same TLS (same CA) with a fixed address and no signing, no DNS and no database. Both in one process pinned to core 0; PostgreSQL on loopback, on either core. CPU time per call (medians of the rounds) from \`process.cpuUsage\` and \`/proc\` (the receivers' process, with the DNS server, and every \`postgres\` process), from the start of a round to its last call answered (for Herald, to its last outcome written). ${machineLine()}.`,
      '',
      '| target | seconds (median) | calls/s | CPU per call: lane or loop | receiver | PostgreSQL |',
      '|---|---:|---:|---:|---:|---:|',
      `| bare undici loop (baseline) | ${bareSeconds.toFixed(2)} | ${perSecond(bareSeconds)} | ${cpuCells(bareCpu)} |`,
      `| Herald webhook-delivery lane (PENDING → answered 200) | ${heraldSeconds.toFixed(2)} | ${perSecond(heraldSeconds)} | ${cpuCells(heraldCpu)} |`,
      '',
      `Throughput ratio: **${(ratio * 100).toFixed(0)}%** of the bare loop (target: at least 50%, ${ratio >= 0.5 ? 'met' : '**not met**'}).`,
      '',
      `Recovery: ${RECOVERY_CALLS} calls while the receiver answered 503 (first attempt and the 5 s retry), then back up and the clock moved past the 5 min step: ` +
        `${report.ok} answered 200, ${report.unique} distinct webhook-ids among them, ${delivered} calls DELIVERED, ${report.total} requests in all ` +
        `(${recovered ? 'every call delivered exactly once after recovery, none lost' : '**calls lost or duplicated**'}).`,
    ].join('\n');
    console.log(body);
    writeSection('webhook-delivery', body);
    await removeTeams(deps.db, 'id = $1', [team.id]);
  } finally {
    child.kill('SIGKILL');
    await deps.close();
  }
}

if (process.argv[2] === 'receiver') await receiverMain();
else await main();

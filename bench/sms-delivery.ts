// SMS delivery throughput: messages/s from `queued` to accepted by a fake Twilio
// (test/support/fake-twilio.ts, its own process pinned to core 1) by one worker (a QueueRunner with
// the sms-delivery queue and the twilio adapter), each outcome written with its sms.sent event, beside
// a bare undici loop posting the same forms to the same fake with as many in flight, in the same run.
// Beside each figure, the CPU time per message of the three processes involved (the worker or loop,
// the fake, PostgreSQL), and a third round whose provider answers at once without HTTP: together
// they show where Herald's time goes, and what bounds the ratio when the machine has few cores.
// Run: npm exec -- node bench/sms-delivery.ts   (BENCH_DATABASE_URL; BENCH_SMS, default 60000:
// rounds long enough that what only their start and end cost, the loops' start-up and the worker's
// first claim and last outcome write, does not decide the ratio, on a fast machine too)
//
// The messages are stored `queued` directly in the database while no worker runs (the send path has
// its own benchmark, bench/sms-send.ts).
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { sql } from 'kysely';
import pino from 'pino';
import { Agent, request } from 'undici';
import type { SmsProvider } from '../src/adapters/sms-provider/index.ts';
import type { buildDeps } from '../src/build-deps.ts';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { BENCH_SECRET } from './herald-app.ts';
import { median, pinToCoreZero, startPinnedChild } from './measure.ts';
import { cpuSince, postgresCpu, processCpuMicros } from './proc-cpu.ts';
import { machineLine, writeSection } from './results.ts';

const MESSAGES = Number(process.env.BENCH_SMS ?? 60_000);
// Nine: on a shared machine one round of a pair can run twice as fast as the next; the median holds.
const ROUNDS = 9;
const BARE_IN_FLIGHT = 100;
// Sent before each round's clock starts, by the same worker or loop: a running worker's connections
// are open and PostgreSQL has loaded and planned what its statements need (a new connection's first
// claim and outcome write cost it several times a later one's), and the loop's are open too.
const WARM_UP = 2_000;
const TEXT = 'Your Herald verification code is 482913. It expires in 10 minutes.';
const SID = 'AC00000000000000000000000000000001';
const TOKEN = 'twilio-bench-auth-token';

// ---- the fake Twilio, in its own process on core 1 ----

type ToFake = { expect: number };
type FromFake = { url: string } | { received: number };

async function fakeMain(): Promise<void> {
  const { FakeTwilio } = await import('../test/support/fake-twilio.ts');
  const twilio = await FakeTwilio.start({ accountSid: SID, authToken: TOKEN });
  const send = (message: FromFake) => process.send!(message);
  process.on('message', (message: ToFake) => {
    const start = twilio.messages.length;
    const timer = setInterval(() => {
      if (twilio.messages.length - start < message.expect) return;
      clearInterval(timer);
      send({ received: twilio.messages.length - start });
    }, 2);
  });
  send({ url: twilio.url });
}

function expectMessages(child: ChildProcess, count: number): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: FromFake) => {
      if (!('received' in message)) return;
      child.off('message', onMessage);
      resolve(message.received);
    };
    child.on('message', onMessage);
    child.send({ expect: count } satisfies ToFake);
  });
}

// ---- the bare loop ----

/** Posts WARM_UP forms, then MESSAGES more: answers the time and CPU the timed ones took. */
async function bareLoop(url: string, fakePid: number): Promise<RoundResult> {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  await postAll(agent, url, WARM_UP, BARE_IN_FLIGHT);
  const cpu = measureCpu(fakePid);
  const started = performance.now();
  await postAll(agent, url, MESSAGES, BARE_IN_FLIGHT);
  const result = { seconds: (performance.now() - started) / 1000, cpu: cpu.per(MESSAGES) };
  await agent.close();
  return result;
}

async function postAll(agent: Agent, url: string, count: number, inFlight: number): Promise<void> {
  const endpoint = `${url}/2010-04-01/Accounts/${SID}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const form = new URLSearchParams({
        To: `+1415555${String(i % 10000).padStart(4, '0')}`,
        From: 'Herald',
        Body: TEXT,
        StatusCallback: 'http://127.0.0.1:1/hooks/sms/twilio',
      });
      const response = await request(endpoint, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      });
      const body = (await response.body.json()) as { sid?: string };
      if (response.statusCode !== 201 || !body.sid) throw new Error(`bare loop: ${response.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
}

// ---- Herald's worker ----

/**
 * CPU time per message of the worker or loop (this process), the fake, and PostgreSQL; and how long
 * this process stood still for garbage collection, part of its own.
 */
interface CpuPerMessage {
  own: number;
  fake: number;
  postgres: number;
  gcPause: number;
}

/** Milliseconds this process has paused for garbage collection so far. */
let gcPausedMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPausedMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

/** Starts a CPU measurement of this process, the fake (`fakePid`) and PostgreSQL; `per(n)` ends it. */
function measureCpu(fakePid: number) {
  const own = process.cpuUsage();
  const fake = processCpuMicros(fakePid);
  const postgres = postgresCpu();
  const gcAtStart = gcPausedMs;
  return {
    per(messages: number): CpuPerMessage {
      const used = process.cpuUsage(own);
      return {
        own: (used.user + used.system) / messages,
        fake: (processCpuMicros(fakePid) - fake) / messages,
        postgres: cpuSince(postgres, postgresCpu()) / messages,
        gcPause: ((gcPausedMs - gcAtStart) * 1000) / messages,
      };
    },
  };
}

/**
 * The breakdown round's provider: accepts every message at once, without HTTP, so that the round
 * measures what the worker and PostgreSQL spend on the queue alone.
 */
function instantProvider(): SmsProvider {
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

interface RoundResult {
  seconds: number;
  cpu: CpuPerMessage;
}

type Deps = Awaited<ReturnType<typeof buildDeps>>;

/** Stores `count` messages of a new team `queued` with their rows in the delivery queue; answers the team. */
async function storeQueued(deps: Deps, name: string, count: number): Promise<number> {
  const { createTeam } = await import('../src/accounts/index.ts');
  const { newId } = await import('../src/platform/ids.ts');
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
  const { QueueRunner } = await import('../src/queue/index.ts');
  const { smsDeliveryQueue } = await import('../src/sms/index.ts');
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

async function heraldRound(fakeUrl: string, fakePid: number, round: number, http: boolean): Promise<RoundResult> {
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/build-deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { createTwilioProvider } = await import('../src/adapters/sms-provider/index.ts');
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
  const { deleteSmsOfTeam } = await import('../src/sms/index.ts');
  for (const id of [warmUp, team]) await deleteSmsOfTeam(deps.db, id);
  await deps.db.deleteFrom('teams').where('id', 'in', [warmUp, team]).execute();
  await deps.close();
  return result;
}

if (process.argv[2] === 'fake') {
  await fakeMain();
} else {
  pinToCoreZero();
  await ensureDatabase(BENCH_DATABASE_URL);
  const { child, info } = await startPinnedChild<{ url: string }>(import.meta.filename, ['fake']);
  const fakePid = child.pid!;
  const rounds: { bare: RoundResult[]; herald: RoundResult[]; instant: RoundResult[] } = {
    bare: [],
    herald: [],
    instant: [],
  };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const herald = expectMessages(child, WARM_UP + MESSAGES);
      rounds.herald.push(await heraldRound(info.url, fakePid, round, true));
      await herald;
      const bare = expectMessages(child, WARM_UP + MESSAGES);
      rounds.bare.push(await bareLoop(info.url, fakePid));
      await bare;
      rounds.instant.push(await heraldRound(info.url, fakePid, round, false));
    }
  } finally {
    child.kill('SIGKILL');
  }
  const summary = (list: RoundResult[]) => ({
    seconds: median(list.map((r) => r.seconds)),
    own: median(list.map((r) => r.cpu.own)),
    fake: median(list.map((r) => r.cpu.fake)),
    postgres: median(list.map((r) => r.cpu.postgres)),
    gcPause: median(list.map((r) => r.cpu.gcPause)),
  });
  const bare = summary(rounds.bare);
  const herald = summary(rounds.herald);
  const instant = summary(rounds.instant);
  // Each Herald round is paired with the bare round run right after it: a shared machine's speed
  // drifts within a run, and a pair shares its moment; the per-round ratios show the spread.
  const ratios = rounds.herald.map((r, i) => rounds.bare[i]!.seconds / r.seconds);
  const ratio = median(ratios);
  const micros = (value: number) => `${value.toFixed(0)} µs`;
  const gcMicros = (value: number) => `${value.toFixed(1)} µs`;
  const row = (name: string, figures: ReturnType<typeof summary>, fake = true) =>
    `| ${name} | ${figures.seconds.toFixed(2)} | ${Math.round(MESSAGES / figures.seconds).toLocaleString('en-US')} | ${micros(figures.own)} | ${fake ? micros(figures.fake) : '–'} | ${micros(figures.postgres)} |`;
  const total = (figures: ReturnType<typeof summary>) => figures.own + figures.fake + figures.postgres;
  const cores = os.cpus().length;
  const { smsDeliveryQueue } = await import('../src/sms/index.ts');
  const { MAX_CONNECTIONS } = await import('../src/adapters/sms-provider/http.ts');
  const shape = smsDeliveryQueue({ provider: instantProvider() });
  const body = [
    '## SMS delivery (sms)',
    '',
    `\`npm exec -- node bench/sms-delivery.ts\`: ${MESSAGES.toLocaleString('en-US')} messages per round, stored \`queued\` with their rows in the delivery queue while no worker runs (after a warm-up: the same worker first sends ${WARM_UP.toLocaleString('en-US')} messages of another team, untimed, so that the timed ones meet open connections whose statements PostgreSQL has prepared, as a running worker's are; then a VACUUM of the SMS tables, so that earlier rounds' deleted rows do not weigh on this one, and with an ANALYZE once they are stored, so that the claims and outcome writes are planned for tables that hold them), then one QueueRunner with the sms-delivery queue (batches of ${shape.batchSize}, ${shape.concurrency} at once, at most ${shape.fullBatches} of them full) and the twilio adapter (at most ${MAX_CONNECTIONS} connections to the provider) pointed at the fake Twilio (test/support/fake-twilio.ts, its own process pinned to core 1), timed until the worker finds nothing more due (every message then \`sent\` in the database with its sms.sent event, which a count checks after the clock stops); median of ${ROUNDS} alternating rounds. Baseline: a bare undici loop, ${BARE_IN_FLIGHT} in flight, posting the same forms with the same Basic auth to the same fake, after the same warm-up on the same connections. Worker and loop pinned to core 0; PostgreSQL on loopback, on either core. CPU time per message from \`process.cpuUsage\` and \`/proc\` (every \`postgres\` process). A third round in each, for the breakdown only: the same worker with a provider that accepts every message at once, without HTTP. ${machineLine()}.`,
    '',
    '| target | seconds (median) | messages/s | CPU per message: worker or loop | fake Twilio | PostgreSQL |',
    '|---|---:|---:|---:|---:|---:|',
    row('bare undici loop (baseline)', bare),
    row('Herald sms-delivery worker (queued → accepted, outcome written)', herald),
    row('Herald worker, provider answering at once (no HTTP; breakdown only)', instant, false),
    '',
    `Throughput ratio, the median of the ${ROUNDS} rounds' ratios (${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')}): **${(ratio * 100).toFixed(0)}%** of the bare loop (target: at least 60%, ${ratio >= 0.6 ? 'met' : '**not met**'}).`,
    '',
    `Where the time goes: per message, the bare loop and the fake use ${micros(bare.own + bare.fake)} of CPU in all; Herald's worker, the fake and PostgreSQL use ${micros(total(herald))}, of which ${micros(instant.own + instant.postgres)} is the queue's own work in the worker and PostgreSQL (claims and outcome writes: the no-HTTP round). Garbage collection paused the worker ${gcMicros(herald.gcPause)} per message and the loop ${gcMicros(bare.gcPause)} (PerformanceObserver \`gc\` entries). At those costs, ${cores} cores shared by all three processes give Herald at most ${Math.round((cores * 1e6) / total(herald)).toLocaleString('en-US')} messages/s with every core busy; 60% of the bare loop (${Math.round((0.6 * MESSAGES) / bare.seconds).toLocaleString('en-US')} messages/s) would need at most ${micros((cores * 1e6 * bare.seconds) / (0.6 * MESSAGES))} per message across the three.`,
  ].join('\n');
  console.log(body);
  writeSection('sms-delivery', body);
}

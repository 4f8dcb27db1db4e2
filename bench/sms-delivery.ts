// SMS delivery throughput: messages/s from `queued` to accepted by a fake Twilio
// (test/support/fake-twilio.ts, its own process pinned to core 1) by one worker (a QueueRunner with
// the sms-delivery queue and the twilio adapter), each outcome written with its sms.sent event, beside
// a bare undici loop posting the same forms to the same fake with as many in flight, in the same run.
// Run: npm exec -- node bench/sms-delivery.ts   (BENCH_DATABASE_URL; BENCH_SMS, default 30000:
// rounds long enough that the two loops' start-up does not decide the ratio on a fast machine too)
//
// The messages are stored `queued` directly in the database while no worker runs (the send path has
// its own benchmark, bench/sms-send.ts).
import type { ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import pino from 'pino';
import { Agent, request } from 'undici';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { BENCH_SECRET } from './herald-app.ts';
import { median, pinToCoreZero, startPinnedChild } from './measure.ts';
import { machineLine, writeSection } from './results.ts';

const MESSAGES = Number(process.env.BENCH_SMS ?? 30_000);
const ROUNDS = 5;
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

async function bareLoop(url: string, count: number, inFlight: number): Promise<number> {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const endpoint = `${url}/2010-04-01/Accounts/${SID}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
  let next = 0;
  const started = performance.now();
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
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return seconds;
}

// ---- Herald's worker ----

async function heraldRound(fakeUrl: string, round: number) {
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { createTeam } = await import('../src/platform/teams.ts');
  const { newId } = await import('../src/platform/ids.ts');
  const { QueueRunner } = await import('../src/queue/index.ts');
  const { smsDeliveryQueue } = await import('../src/sms/index.ts');
  const { createTwilioProvider } = await import('../src/adapters/sms-provider/index.ts');
  const config = { ...loadConfig({}), databaseUrl: BENCH_DATABASE_URL, secret: BENCH_SECRET, adminToken: null };
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  await migrate(deps.database);
  const now = new Date();
  // Each round starts on vacuumed tables: the dead rows of earlier rounds and runs (their messages
  // are deleted with their team) would otherwise make the figure depend on when autovacuum last ran.
  await sql`VACUUM (ANALYZE) sms_messages, sms_deliveries, sms_provider_ids`.execute(deps.db);
  const team = await createTeam(deps.db, { name: `bench-sms-delivery-${round}` }, now);
  const rows = Array.from({ length: MESSAGES }, (_, i) => {
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
        rows
          .slice(i, i + 500)
          .map((row) => ({ sms_id: row.id, team_id: team.id, created_at: now, next_attempt_at: now })),
      )
      .execute();
  // Statistics that know the queued messages, as a running deployment's would: planned against the
  // empty tables the VACUUM left, claims and outcome writes could scan every queued message.
  await sql`ANALYZE sms_messages, sms_deliveries`.execute(deps.db);
  const provider = createTwilioProvider({
    accountSid: SID,
    authToken: TOKEN,
    apiUrl: fakeUrl,
    statusCallbackUrl: 'http://127.0.0.1:1/hooks/sms/twilio',
  });
  const runner = new QueueRunner({
    database: deps.database,
    queues: [smsDeliveryQueue({ provider })],
    clock: deps.clock,
    pollMs: 1000,
  });
  const started = performance.now();
  await runner.start();
  runner.notify('sms-delivery');
  let sent = 0;
  while (sent < MESSAGES) {
    await runner.idle();
    const counted = await deps.db
      .selectFrom('sms_messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('team_id', '=', team.id)
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    sent = Number(counted.n);
    if (sent < MESSAGES) runner.notify('sms-delivery');
  }
  const seconds = (performance.now() - started) / 1000;
  await runner.stop();
  await provider.close();
  await deps.db.deleteFrom('teams').where('id', '=', team.id).execute();
  await deps.close();
  return { seconds, inFlight: 100 };
}

if (process.argv[2] === 'fake') {
  await fakeMain();
} else {
  pinToCoreZero();
  await ensureDatabase(BENCH_DATABASE_URL);
  const { child, info } = await startPinnedChild<{ url: string }>(import.meta.filename, ['fake']);
  const times: { bare: number[]; herald: number[] } = { bare: [], herald: [] };
  let inFlight = 100;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const herald = expectMessages(child, MESSAGES);
      const result = await heraldRound(info.url, round);
      await herald;
      inFlight = result.inFlight;
      times.herald.push(result.seconds);
      const bare = expectMessages(child, MESSAGES);
      times.bare.push(await bareLoop(info.url, MESSAGES, inFlight));
      await bare;
    }
  } finally {
    child.kill('SIGKILL');
  }
  const bare = median(times.bare);
  const herald = median(times.herald);
  // Each Herald round is paired with the bare round run right after it: a shared machine's speed
  // drifts within a run, and a pair shares its moment; the per-round ratios show the spread.
  const ratios = times.herald.map((seconds, i) => times.bare[i]! / seconds);
  const ratio = median(ratios);
  const row = (name: string, s: number) =>
    `| ${name} | ${s.toFixed(2)} | ${Math.round(MESSAGES / s).toLocaleString('en-US')} |`;
  const body = [
    '## SMS delivery (sms)',
    '',
    `\`npm exec -- node bench/sms-delivery.ts\`: ${MESSAGES.toLocaleString('en-US')} messages per round, stored \`queued\` with their rows in the delivery queue while no worker runs (after a VACUUM of the SMS tables, so that earlier rounds' deleted rows do not weigh on this one, and with an ANALYZE once they are stored, so that the claims and outcome writes are planned for tables that hold them), then one QueueRunner with the sms-delivery queue and the twilio adapter pointed at the fake Twilio (test/support/fake-twilio.ts, its own process pinned to core 1), timed until every message is \`sent\` in the database with its sms.sent event; median of ${ROUNDS} alternating rounds. Baseline: a bare undici loop, ${inFlight} in flight, posting the same forms with the same Basic auth to the same fake. Worker and loop pinned to core 0; PostgreSQL on loopback. ${machineLine()}.`,
    '',
    '| target | seconds (median) | messages/s |',
    '|---|---:|---:|',
    row('bare undici loop (baseline)', bare),
    row('Herald sms-delivery worker (queued → accepted, outcome written)', herald),
    '',
    `Throughput ratio, the median of the ${ROUNDS} rounds' ratios (${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')}): **${(ratio * 100).toFixed(0)}%** of the bare loop (target: at least 60%, ${ratio >= 0.6 ? 'met' : '**not met**'}).`,
  ].join('\n');
  console.log(body);
  writeSection('sms-delivery', body);
}

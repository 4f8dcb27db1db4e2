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
//
// Its parts: bench/sms-delivery/ (the fake Twilio's process, the bare loop, a Herald round, the CPU
// measurement).
import os from 'node:os';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { median, pinToCoreZero, startPinnedChild } from './measure.ts';
import { machineLine, writeSection } from './results.ts';
import { bareLoop } from './sms-delivery/bare-loop.ts';
import type { RoundResult } from './sms-delivery/cpu.ts';
import { expectMessages, fakeMain } from './sms-delivery/fake-twilio.ts';
import { heraldRound, instantProvider } from './sms-delivery/herald-round.ts';
import { BARE_IN_FLIGHT, MESSAGES, WARM_UP } from './sms-delivery/settings.ts';

// Nine: on a shared machine one round of a pair can run twice as fast as the next; the median holds.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

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
      const [h, b] = [rounds.herald.at(-1)!, rounds.bare.at(-1)!];
      process.stderr.write(
        `round ${round + 1}/${ROUNDS}: Herald ${h.seconds.toFixed(2)} s, bare ${b.seconds.toFixed(2)} s\n`,
      );
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

// The scale benchmark's section of bench/RESULTS.md: each figure at both sizes, its ratio and target.
import type { Figures } from '../measure.ts';
import { machineLine, verdict } from '../results.ts';
import type { DeliveryFigures } from './delivery.ts';
import type { Generated, Sizes } from './generate.ts';
import { READ_RUNS, READS, type ReadFigures, type ReadName } from './reads.ts';
import { CONNECTIONS, DURATION_S, ROUNDS, type RetentionRound } from './send.ts';
import { count, MONTHS } from './setup.ts';

export interface SizeFigures {
  emails: number;
  generated: Generated;
  sizes: Sizes;
  reads: Record<ReadName, ReadFigures>;
  send: Figures;
  delivery: DeliveryFigures;
}

export interface ScaleFigures {
  command: string;
  database: string;
  small: SizeFigures;
  large: SizeFigures;
  retention: RetentionRound;
  retentionDays: { bodiesDays: number; eventsDays: number };
  droppedMonth: string;
  totalMinutes: number;
  load: { before: string; after: string };
}

const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const times = (ratio: number) => `${ratio.toFixed(2)} ×`;
const percent = (ratio: number) => `${(ratio * 100).toFixed(0)}%`;

const failures = (r: RetentionRound) => r.failures.map((x) => `${x.error}, after ${x.ms.toFixed(0)} ms`).join('; ');

/** The run's time and verdict, or how it failed under the sends and its time without them. */
function retentionOutcome(r: RetentionRound): string {
  const why =
    "likely a lock-order inversion: the drop locks the children's tables before `emails`, a send locks `emails` first";
  if (r.retentionMs === null)
    return `**failed**: all ${r.failures.length} attempts deadlocked with the sends (${failures(r)}; ${why}); the same run once the sends had stopped: ${(r.quietMs! / 1000).toFixed(2)} s (target: under 1 s during sends, **not met**)`;
  const after =
    r.failures.length === 0
      ? ''
      : `, **after ${r.failures.length} attempts that deadlocked** (${failures(r)}; ${why}; ${(r.totalMs / 1000).toFixed(2)} s in all)`;
  return `**${(r.retentionMs / 1000).toFixed(2)} s**${after} (target: under 1 s, ${verdict(r.retentionMs < 1000 && r.failures.length === 0)})`;
}

export function scaleSection(f: ScaleFigures): string {
  const { small, large, retention } = f;
  const row = (label: string, s: string, l: string, ratio: string, target: string, ok: boolean | null) =>
    `| ${label} | ${s} | ${l} | ${ratio} | ${target} | ${ok === null ? '' : verdict(ok)} |`;
  const readRow = (name: ReadName, target: number | null) => {
    const ratio = large.reads[name].median / small.reads[name].median;
    const cell = (r: ReadFigures) => `${ms(r.median)} (p95 ${ms(r.p95)})`;
    return row(
      READS[name],
      cell(small.reads[name]),
      cell(large.reads[name]),
      times(ratio),
      target === null ? '' : `at most ${target} ×`,
      target === null ? null : ratio <= target,
    );
  };
  const sendRatio = large.send.rps / small.send.rps;
  const p99Ratio = large.send.p99 / small.send.p99;
  const deliveryRatio = large.delivery.perSecond / small.delivery.perSecond;
  const duringRatio = retention.during.p99 / retention.without.p99;
  const generation = small.generated.seconds + large.generated.seconds;
  const bytesPerEmail = large.sizes.familyBytes / large.sizes.emails;
  const rps = (x: Figures) => `${count(x.rps)} req/s`;
  const rate = (d: DeliveryFigures) =>
    `${count(d.perSecond)} emails/s (${count(d.deliveries)} of ${count(d.backlog)} QUEUED)`;
  return [
    '## Scale: a small and a large team (emails, retention)',
    '',
    `\`${f.command}\`: one Pro team measured twice in the same run by the same code, first with ${count(small.emails)} emails, then grown to ${count(large.emails)} emails and ${count(large.generated.events + small.generated.events)} events (three per email) over the ${MONTHS} months before the current one and this month up to an hour ago, each month's share by its length. ` +
      `The database (\`${f.database}\`, made afresh) is partitioned as after a year of Herald: for every partitioned table the first partition ends where the month ${MONTHS} months ago begins, and each month has its own. ` +
      `History by set-based SQL, one transaction a month without triggers, ids by \`herald_new_id('em_', created_at)\`; statuses 83% DELIVERED, 11% OPENED, 2% CLICKED, 3% BOUNCED, 0.1% COMPLAINED, 0.9% FAILED, none QUEUED; one recipient row each; 2 KB HTML bodies in last month's and this month's emails only (older bodies removed, the retention mark past them); the send quota's daily counters; then the analytics counters by the analytics area's backfill and VACUUM ANALYZE. ` +
      `Generation: ${small.generated.seconds.toFixed(0)} s for the small team, ${large.generated.seconds.toFixed(0)} s more for the large one (of which ${large.generated.statsSeconds.toFixed(0)} s counting the analytics counters and ${large.generated.analyzeSeconds.toFixed(0)} s VACUUM ANALYZE), ${(generation / 60).toFixed(1)} min in all; database size ${gb(small.sizes.databaseBytes)} small, **${gb(large.sizes.databaseBytes)}** large. Whole run ${f.totalMinutes.toFixed(0)} min.`,
    '',
    `Sends: POST /api/v1/emails (bench/email-send.ts's request), ${CONNECTIONS} connections, median of ${ROUNDS} rounds of ${DURATION_S} s (each after a 2 s warm-up) after one unmeasured round, autocannon pinned to core 0, the server to core 1; the emails stored are removed after. ` +
      `Reads: through the real app in process (app.inject), ${READ_RUNS.warmUp} warm-up rounds then ${READ_RUNS.runs} rounds each requesting every read in turn, median and p95; the deep page's cursor found by walking nextCursor. ` +
      `Delivery (bench/email-delivery.ts's worker and SMTP sink, DKIM-signed): small, ${count(small.delivery.backlog)} QUEUED delivered whole, median of 3 rounds; large, ${count(large.delivery.backlog)} QUEUED in the current month (copies of an email sent through the API, set-based, ${large.delivery.backlogSeconds.toFixed(0)} s) and the rate over the first ${count(large.delivery.deliveries)} deliveries, median of 3 rounds. ` +
      `PostgreSQL 15 on loopback. Load average (1/5/15 min) ${f.load.before} before, ${f.load.after} after: the sizes cannot alternate (one team), so noise between them shows in the ratios. ${machineLine()}.`,
    '',
    '| figure | small | large | large / small | target | |',
    '|---|---:|---:|---:|---|---|',
    row(
      'POST /v1/emails throughput',
      rps(small.send),
      rps(large.send),
      percent(sendRatio),
      'at least 90%',
      sendRatio >= 0.9,
    ),
    row(
      'POST /v1/emails p99',
      `${small.send.p99} ms`,
      `${large.send.p99} ms`,
      times(p99Ratio),
      'at most 1.2 ×',
      p99Ratio <= 1.2,
    ),
    readRow('listFirst', 1.5),
    readRow('listDeep', 1.5),
    readRow('reputation', 1.5),
    readRow('series', 1.5),
    readRow('usage', 1.5),
    readRow('baseline', null),
    row(
      'email delivery from a backlog',
      rate(small.delivery),
      rate(large.delivery),
      percent(deliveryRatio),
      'at least 90%',
      deliveryRatio >= 0.9,
    ),
    '',
    `Retention at the large size: \`runRetention\` (src/retention/run.ts) with eventsDays ${f.retentionDays.eventsDays} and bodiesDays ${f.retentionDays.bodiesDays}, so that exactly the oldest month (${f.droppedMonth}, ${count(small.generated.oldestMonth + large.generated.oldestMonth)} emails and their events and recipients) has expired and no body is due, started a third of the way into a ${DURATION_S} s send round: ${retentionOutcome(retention)}; the month's partitions are gone afterwards; the run that completed dropped ${retention.dropped.length} partitions (${retention.dropped.filter((p) => p.startsWith('email')).join(', ') || 'none of the email family: an attempt that deadlocked had dropped them'}, with the other families' empty ones), ${retention.held} held. ` +
      `Send p99 during that round ${retention.during.p99} ms against ${retention.without.p99} ms without (median of ${ROUNDS} rounds just before), ${times(duringRatio)} (target: at most 1.5 ×, ${verdict(duringRatio <= 1.5)}); ${count(retention.during.rps)} req/s against ${count(retention.without.rps)}, ${retention.during.non2xx} non-2xx or errors.`,
    '',
    `On disk at the large size: **${count(bytesPerEmail)} bytes per email** (tables, indexes and TOAST of emails, email_events, email_recipients, email_attachments and email_opens: ${gb(large.sizes.familyBytes)} for ${count(large.sizes.emails)} emails; the two newest months' 2 KB bodies included, no opens rows or attachments generated).`,
  ].join('\n');
}

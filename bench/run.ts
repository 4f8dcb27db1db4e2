// npm run bench: every benchmark in turn, in one sitting; each rewrites its section of
// bench/RESULTS.md. A benchmark that fails or passes its time bound does not stop the others; the
// summary at the end lists each one's time, exit and the load average after it.
import { spawnSync } from 'node:child_process';
import os from 'node:os';

const SCRIPTS = [
  'auth-noop.ts',
  'queue-claim.ts',
  'email-send.ts',
  'email-delivery.ts',
  'direct-delivery.ts',
  'segment-count.ts',
  'contacts-bulk.ts',
  'webhook-delivery.ts',
  'tracking-open.ts',
  'analytics.ts',
  'smtp-feedback.ts',
  'submission.ts',
  'sms-send.ts',
  'sms-delivery.ts',
  'verify.ts',
  'billing-reads.ts',
  'journeys.ts',
  'inbound.ts',
  'campaigns.ts',
  'builtin-dkim-key.ts',
  'start.ts',
  'cli.ts',
  'dashboard.ts',
  'dashboard-emails.ts',
  // The longest (about 15 minutes at 10,000,000 emails), last.
  'scale.ts',
];

/** A benchmark that runs longer than this is stopped, so that one hang does not take the sitting. */
const TIME_BOUND_MS = 40 * 60_000;

const only = process.argv.slice(2);
const summary: string[] = [];
let failed = 0;
for (const script of only.length > 0 ? only : SCRIPTS) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [new URL(script, import.meta.url).pathname], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: TIME_BOUND_MS,
    killSignal: 'SIGKILL',
  });
  const outcome = result.error
    ? result.error.message
    : result.status === 0
      ? 'ok'
      : `exit ${result.status ?? result.signal}`;
  if (outcome !== 'ok') failed++;
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
  summary.push(`${script}: ${outcome}, ${Math.round((Date.now() - started) / 1000)} s, load average after ${load}`);
  process.stderr.write(`bench/run.ts: ${summary.at(-1)}\n`);
}
process.stderr.write(`\nbench/run.ts summary\n${summary.join('\n')}\n`);
process.exit(failed > 0 ? 1 : 0);

// npm run bench: every benchmark in turn; each rewrites its section of bench/RESULTS.md.
import { spawnSync } from 'node:child_process';

for (const script of [
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
  'sms-send.ts',
  'sms-delivery.ts',
  'verify.ts',
  'billing-reads.ts',
  'journeys.ts',
  'inbound.ts',
  'builtin-dkim-key.ts',
  'start.ts',
  'dashboard.ts',
  'dashboard-emails.ts',
]) {
  const result = spawnSync(process.execPath, [new URL(script, import.meta.url).pathname], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

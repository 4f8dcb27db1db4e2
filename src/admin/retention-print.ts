// How `herald admin retention` prints: a table on a terminal, JSON when piped or with --json.
import type { RetentionPlan } from '../retention/index.ts';
import { textTable } from './cli-table.ts';

const size = (bytes: number) =>
  bytes >= 1 << 30
    ? `${(bytes / (1 << 30)).toFixed(1)} GB`
    : bytes >= 1 << 20
      ? `${(bytes / (1 << 20)).toFixed(1)} MB`
      : `${Math.ceil(bytes / 1024)} KB`;

export function printRetention(body: unknown, json: boolean): string {
  if (json) return `${JSON.stringify(body, null, 2)}\n`;
  const plan = body as RetentionPlan;
  const head =
    `Bodies kept ${plan.bodiesDays} days; emails' metadata and events, SMS and codes ${plan.eventsDays} days; ` +
    `webhook calls ${plan.webhookCallsDays} days.\n`;
  return (
    head +
    textTable(
      ['TABLE', 'MONTH', 'ROWS', 'SIZE', 'NEXT RUN'],
      plan.partitions.map((p) => [
        p.table,
        p.month,
        String(p.rows),
        size(p.bytes),
        p.action === 'held' ? `kept: ${p.held} not final` : p.action,
      ]),
    )
  );
}

// How `herald admin destinations` prints: a table on a terminal, JSON when piped or with --json
// (operator.md: every admin command does so).
import { textTable } from './cli-table.ts';

interface DestinationJson {
  destination: string;
  paused: boolean;
  pausedUntil: string;
  connections: number;
  openConnections: number;
  failures: number;
  reason: string;
}

export function printDestinations(body: unknown, json: boolean): string {
  if (json) return `${JSON.stringify(body, null, 2)}\n`;
  const { data } = body as { data: DestinationJson[] };
  if (data.length === 0) return 'No destination is backed off.\n';
  return textTable(
    ['DESTINATION', 'STATE', 'UNTIL', 'CONNECTIONS', 'OPEN', 'PAUSES', 'WHY'],
    data.map((d) => [
      d.destination,
      d.paused ? 'paused' : 'limited',
      d.paused ? d.pausedUntil : '-',
      String(d.connections),
      String(d.openConnections),
      String(d.failures),
      d.reason,
    ]),
  );
}

// How `herald admin destinations` prints: a table on a terminal, JSON when piped or with --json
// (operator.md: every admin command does so).
interface DestinationJson {
  destination: string;
  paused: boolean;
  pausedUntil: string;
  connections: number;
  openConnections: number;
  failures: number;
  reason: string;
}

/** Columns padded to their widest cell; the reason last, as long as it is. */
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
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

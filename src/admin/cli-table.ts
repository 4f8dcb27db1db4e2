// How `herald admin` prints an answer for people on a terminal (operator.md: JSON when piped or with
// --json): a list (an array, or a page's `data`) as a table with a column per field, one object as
// field and value. Nested values are shown as compact JSON, cut to a width a terminal can hold.
const CELL_MAX = 60;

/** Columns padded to their widest cell; the last one as long as it is. */
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > CELL_MAX ? `${oneLine.slice(0, CELL_MAX - 1)}…` : oneLine;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function rowsTable(rows: unknown[]): string {
  if (rows.length === 0) return '(none)\n';
  if (!rows.every(isRecord))
    return textTable(
      ['VALUE'],
      rows.map((row) => [cell(row)]),
    );
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return textTable(
    columns.map((column) => column.toUpperCase()),
    rows.map((row) => columns.map((column) => cell(row[column]))),
  );
}

export function tableOf(body: unknown): string {
  if (Array.isArray(body)) return rowsTable(body);
  if (isRecord(body) && Array.isArray(body.data)) {
    const rest = Object.entries(body).filter(([key, value]) => key !== 'data' && value !== null);
    const footer = rest.map(([key, value]) => `${key}: ${cell(value)}`).join('\n');
    return rowsTable(body.data) + (footer === '' ? '' : `${footer}\n`);
  }
  if (isRecord(body))
    return textTable(
      ['FIELD', 'VALUE'],
      Object.entries(body).map(([key, value]) => [key, cell(value)]),
    );
  return `${cell(body)}\n`;
}

// A small RFC 4180 CSV reader and writer for the contact import, the browser's twin of
// src/contacts/csv.ts (the dashboard cannot import server code, and no CSV package is installed).
// Fields are separated by commas; a quoted field may hold commas, line breaks and doubled quotes;
// records end with CRLF or LF; a leading BOM is skipped.

export interface CsvRecord {
  /** 1-based line on which the record starts. */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {}

export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let fields: string[] = [];
  let field = '';
  let recordLine = 1;
  let fieldStarted = false;
  const endField = () => {
    fields.push(field);
    field = '';
    fieldStarted = false;
  };
  const endRecord = () => {
    endField();
    records.push({ line: recordLine, fields });
    fields = [];
  };
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"' && !fieldStarted && field === '') {
      const openedOn = line;
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvSyntaxError(`line ${openedOn}: a quoted field is not closed`);
        const inner = text[i]!;
        if (inner === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (inner === '\n') line++;
        field += inner;
        i++;
      }
      fieldStarted = true;
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\r' && next !== '\n') {
        throw new CsvSyntaxError(`line ${line}: text after a closing quote (quote the whole field, double the quotes)`);
      }
      continue;
    }
    if (char === ',') {
      endField();
      i++;
      continue;
    }
    if (char === '\r' || char === '\n') {
      endRecord();
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
      continue;
    }
    field += char;
    fieldStarted = true;
    i++;
  }
  if (fieldStarted || field !== '' || fields.length > 0) endRecord();
  // Blank lines carry no record.
  return records.filter((record) => !(record.fields.length === 1 && record.fields[0] === ''));
}

function quote(field: string): string {
  return /[",\r\n]|^\s|\s$/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

export function formatCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => `${row.map(quote).join(',')}\r\n`).join('');
}

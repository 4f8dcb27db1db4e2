// `herald admin contacts import`: a CSV file into a contact book through the admin API, in batches
// of at most 1,000 that the server stores with the bulk add's code path (addContacts). Rows that
// cannot be imported (bad field, wrong number of fields, an address already earlier in the file)
// are left out and written with the reason to `<file>.rejected.csv`.
import fs from 'node:fs';
import { BULK_MAX, ContactInput } from './schemas.ts';
import { formatCsv, parseCsv, type CsvRecord } from './csv.ts';

interface AdminCall {
  method: 'POST';
  path: string;
  body: Record<string, unknown>;
}
export type SendAdminRequest = (request: AdminCall) => Promise<{ status: number; body: string }>;

interface ImportProgress {
  /** After each batch: rows read so far of the total. */
  batch(done: number, total: number, counts: ImportCounts): void;
  finish(): void;
}

interface ImportCounts {
  created: number;
  updated: number;
  rejected: number;
}

interface ImportSummary extends ImportCounts {
  file: string;
  rows: number;
  /** Where the rejected rows were written, null when none were. */
  rejectedFile: string | null;
}

interface ImportOptions {
  teamId: number;
  bookId: string;
  file: string;
  send: SendAdminRequest;
  progress?: ImportProgress;
  batchSize?: number;
}

const BOOLEAN_WORDS: Record<string, boolean> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  yes: true,
  no: false,
};

/** `First Name`, `first_name` and `firstName` name the same column. */
const columnKey = (name: string) => name.toLowerCase().replace(/[\s_-]/g, '');
const KNOWN = { email: 'email', firstname: 'firstName', lastname: 'lastName', subscribed: 'subscribed' } as const;

interface Row {
  record: CsvRecord;
  input: ContactInput;
}

interface Rejection {
  record: CsvRecord;
  reason: string;
}

function rejectedFilePath(file: string): string {
  return `${file}.rejected.csv`;
}

/** Turns the records after the header into contact inputs, or rejections with their reason. */
function readContactRows(records: readonly CsvRecord[]): {
  header: string[];
  rows: Row[];
  rejected: Rejection[];
} {
  const [headerRecord, ...data] = records;
  if (!headerRecord)
    throw new Error(
      'the file is empty; its first line must name the columns (email, firstName, lastName, subscribed, any other as a property)',
    );
  const header = headerRecord.fields.map((name) => name.trim());
  const keys = header.map(columnKey);
  const duplicate = keys.find((key, index) => key !== '' && keys.indexOf(key) !== index);
  if (duplicate !== undefined) throw new Error(`the header names the column ${duplicate} twice`);
  if (!keys.includes('email')) throw new Error('the header has no email column');

  const rows: Row[] = [];
  const rejected: Rejection[] = [];
  const seen = new Map<string, number>();
  for (const record of data) {
    const reject = (reason: string) => rejected.push({ record, reason });
    if (record.fields.length !== header.length) {
      reject(`has ${record.fields.length} fields, the header has ${header.length}`);
      continue;
    }
    const candidate: Record<string, unknown> = {};
    const properties: Record<string, string> = {};
    let problem: string | null = null;
    record.fields.forEach((raw, index) => {
      const value = raw.trim();
      const known = KNOWN[keys[index] as keyof typeof KNOWN];
      if (known === 'email') candidate.email = value;
      else if (value === '' || header[index] === '')
        return; // an empty cell leaves the field as it is
      else if (known === 'subscribed') {
        const parsed = BOOLEAN_WORDS[value.toLowerCase()];
        if (parsed === undefined) problem ??= `subscribed: "${value}" is not true, false, 1, 0, yes or no`;
        candidate.subscribed = parsed;
      } else if (known) candidate[known] = value;
      else properties[header[index]!] = value;
    });
    if (Object.keys(properties).length > 0) candidate.properties = properties;
    if (problem) {
      reject(problem);
      continue;
    }
    const parsed = ContactInput.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      reject(`${issue.path.join('.') || 'row'}: ${issue.message}`);
      continue;
    }
    const earlier = seen.get(parsed.data.email);
    if (earlier !== undefined) {
      reject(`${parsed.data.email} is already on line ${earlier} of the file`);
      continue;
    }
    seen.set(parsed.data.email, record.line);
    rows.push({ record, input: parsed.data });
  }
  return { header, rows, rejected };
}

function parseAnswer(body: string): {
  created?: number;
  updated?: number;
  error?: { code?: string; message?: string };
} {
  try {
    return JSON.parse(body) as { created?: number; updated?: number };
  } catch {
    return {};
  }
}

export async function importContactsCsv(options: ImportOptions): Promise<ImportSummary> {
  const batchSize = Math.min(options.batchSize ?? BULK_MAX, BULK_MAX);
  const { header, rows, rejected } = readContactRows(parseCsv(fs.readFileSync(options.file, 'utf8')));
  const total = rows.length + rejected.length;
  const counts: ImportCounts = { created: 0, updated: 0, rejected: rejected.length };
  const path = `/teams/${options.teamId}/contact-books/${encodeURIComponent(options.bookId)}/contacts/import`;
  let done = rejected.length;
  try {
    for (let start = 0; start < rows.length; start += batchSize) {
      const batch = rows.slice(start, start + batchSize);
      const answer = await options.send({ method: 'POST', path, body: { contacts: batch.map((row) => row.input) } });
      const parsed = parseAnswer(answer.body);
      if (answer.status === 400) {
        // The rows passed the same schema here, so this is a server of another version: keep going.
        const reason = `refused with its batch: ${parsed.error?.message ?? 'HTTP 400'}`;
        for (const row of batch) rejected.push({ record: row.record, reason });
        counts.rejected += batch.length;
      } else if (answer.status !== 200) {
        const message = parsed.error ? `${parsed.error.code}: ${parsed.error.message}` : `HTTP ${answer.status}`;
        throw new Error(`${message} (after ${counts.created + counts.updated} rows were imported)`);
      } else {
        counts.created += parsed.created ?? 0;
        counts.updated += parsed.updated ?? 0;
      }
      done += batch.length;
      options.progress?.batch(done, total, counts);
    }
    if (rows.length === 0) options.progress?.batch(done, total, counts);
  } finally {
    options.progress?.finish();
  }
  const rejectedFile = rejectedFilePath(options.file);
  if (rejected.length > 0) {
    rejected.sort((a, b) => a.record.line - b.record.line);
    // The reason comes before the row's own fields, so it stays in one column when a row is ragged.
    const lines = rejected.map(({ record, reason }) => [String(record.line), reason, ...record.fields]);
    fs.writeFileSync(rejectedFile, formatCsv([['line', 'reason', ...header], ...lines]));
  } else {
    fs.rmSync(rejectedFile, { force: true }); // not a stale list from an earlier run
  }
  return { file: options.file, rows: total, ...counts, rejectedFile: rejected.length > 0 ? rejectedFile : null };
}

/** A bar redrawn in place on a terminal; a plain line per batch otherwise (logs, pipes). */
export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): ImportProgress {
  const width = 30;
  let drawn = false;
  return {
    batch(done, total, counts) {
      const tally = `${done}/${total} rows, ${counts.created} created, ${counts.updated} updated, ${counts.rejected} rejected`;
      if (stream.isTTY) {
        const filled = total === 0 ? width : Math.round((done / total) * width);
        stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${tally}`);
        drawn = true;
      } else {
        stream.write(`import: ${tally}\n`);
      }
    },
    finish() {
      if (drawn) stream.write('\n');
    },
  };
}

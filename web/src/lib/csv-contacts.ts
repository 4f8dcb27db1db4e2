// CSV rows to contact inputs for the bulk add, with the API's own rules checked first (schemas.ts:
// ContactInput), because one bad entry makes the API refuse its whole batch of 1,000. Each row is one
// outcome: imported, or rejected with its reason (an address already on an earlier line too, as
// `herald admin contacts import` does).
import type { paths } from '../api/schema';
import { formatCsv, type CsvRecord } from './csv-parse.ts';

export type ContactInput =
  paths['/api/v1/contactBooks/{contactBookId}/contacts/bulk']['post']['requestBody']['content']['application/json'][number];

export type ColumnTarget = 'email' | 'firstName' | 'lastName' | 'subscribed' | 'property' | 'skip';

export const targetLabels: Record<ColumnTarget, string> = {
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  subscribed: 'Subscribed',
  property: 'Property',
  skip: 'Skip',
};

export interface ImportRow {
  record: CsvRecord;
  input: ContactInput;
}

export interface Rejection {
  record: CsvRecord;
  reason: string;
}

/** The API's email check (zod's pattern, the one the server uses) and limits. */
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const EMAIL_MAX = 320;
const NAME_MAX = 200;
const PROPERTIES_MAX = 100;
const PROPERTY_KEY_MAX = 100;
const PROPERTY_VALUE_MAX = 2000;
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
const KNOWN: Record<string, ColumnTarget> = {
  email: 'email',
  emailaddress: 'email',
  firstname: 'firstName',
  lastname: 'lastName',
  subscribed: 'subscribed',
};

/** A first guess at each column's meaning; any other named column becomes a property. */
export function guessMapping(header: readonly string[]): ColumnTarget[] {
  const taken = new Set<ColumnTarget>();
  return header.map((name) => {
    const known = KNOWN[columnKey(name)];
    if (known && !taken.has(known)) {
      taken.add(known);
      return known;
    }
    return name.trim() === '' ? 'skip' : 'property';
  });
}

/** Why this mapping cannot be imported, or null. */
export function mappingProblem(header: readonly string[], mapping: readonly ColumnTarget[]): string | null {
  const count = (target: ColumnTarget) => mapping.filter((t) => t === target).length;
  if (count('email') !== 1) return 'Choose exactly one column as Email.';
  for (const target of ['firstName', 'lastName', 'subscribed'] as const) {
    if (count(target) > 1) return `Only one column can be ${targetLabels[target]}.`;
  }
  const properties = header.filter((_, i) => mapping[i] === 'property').map((name) => name.trim());
  if (properties.some((name) => name === '' || name.length > PROPERTY_KEY_MAX))
    return `A property column needs a name of 1 to ${PROPERTY_KEY_MAX} characters in the first line.`;
  if (new Set(properties).size !== properties.length) return 'Two property columns have the same name.';
  if (properties.length > PROPERTIES_MAX) return `At most ${PROPERTIES_MAX} property columns.`;
  return null;
}

function checkInput(input: ContactInput): string | null {
  if (input.email.length > EMAIL_MAX) return `email: at most ${EMAIL_MAX} characters`;
  if (!EMAIL.test(input.email)) return 'email: must be an email address';
  for (const field of ['firstName', 'lastName'] as const) {
    const value = input[field];
    if (value && value.length > NAME_MAX) return `${field}: at most ${NAME_MAX} characters`;
  }
  for (const [key, value] of Object.entries(input.properties ?? {})) {
    if (value.length > PROPERTY_VALUE_MAX) return `properties.${key}: a property value is at most 2000 characters`;
  }
  return null;
}

/** The data records (after the header) as inputs, or rejections with the reason. */
export function readContactRows(
  header: readonly string[],
  records: readonly CsvRecord[],
  mapping: readonly ColumnTarget[],
): { rows: ImportRow[]; rejected: Rejection[] } {
  const rows: ImportRow[] = [];
  const rejected: Rejection[] = [];
  const seen = new Map<string, number>();
  for (const record of records) {
    const reject = (reason: string) => rejected.push({ record, reason });
    if (record.fields.length !== header.length) {
      reject(`has ${record.fields.length} fields, the header has ${header.length}`);
      continue;
    }
    const input: ContactInput = { email: '' };
    const properties: Record<string, string> = {};
    let problem: string | null = null;
    record.fields.forEach((raw, index) => {
      const value = raw.trim();
      const target = mapping[index];
      if (target === 'email') input.email = value.toLowerCase();
      else if (value === '' || target === 'skip')
        return; // an empty cell leaves the field as it is
      else if (target === 'subscribed') {
        const parsed = BOOLEAN_WORDS[value.toLowerCase()];
        if (parsed === undefined) problem ??= `subscribed: "${value}" is not true, false, 1, 0, yes or no`;
        else input.subscribed = parsed;
      } else if (target === 'firstName' || target === 'lastName') input[target] = value;
      else if (target === 'property') properties[header[index]!.trim()] = value;
    });
    if (Object.keys(properties).length > 0) input.properties = properties;
    problem ??= input.email === '' ? 'email: the cell is empty' : checkInput(input);
    if (problem) {
      reject(problem);
      continue;
    }
    const earlier = seen.get(input.email);
    if (earlier !== undefined) {
      reject(`${input.email} is already on line ${earlier} of the file`);
      continue;
    }
    seen.set(input.email, record.line);
    rows.push({ record, input });
  }
  return { rows, rejected };
}

/** The rejected rows as CSV: line and reason first (so the reason stays put on a ragged row). */
export function rejectedRowsCsv(header: readonly string[], rejected: readonly Rejection[]): string {
  const sorted = [...rejected].sort((a, b) => a.record.line - b.record.line);
  return formatCsv([
    ['line', 'reason', ...header],
    ...sorted.map(({ record, reason }) => [String(record.line), reason, ...record.fields]),
  ]);
}

/** The row a bulk add's 400 names (`12.email: …`, 0-based in its batch), with the reason. */
export function rowOfBatchError(message: string): { index: number; reason: string } | null {
  const match = /^(\d+)(?:\.([\w.]+))?:\s*(.+)$/s.exec(message);
  if (!match) return null;
  const reason = match[2] ? `${match[2]}: ${match[3]!.split('; ')[0]}` : match[3]!.split('; ')[0]!;
  return { index: Number(match[1]), reason };
}

// Table and column names come from code, not from users, but a typo should fail at definition time
// with a clear message rather than as a syntax error in the middle of a claim loop.
import { sql, type RawBuilder } from 'kysely';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export function checkIdentifier(what: string, value: string, allowSchema = false): string {
  const parts = value.split('.');
  const ok = parts.length <= (allowSchema ? 2 : 1) && parts.every((part) => IDENTIFIER.test(part));
  if (!ok) throw new Error(`queue ${what} "${value}" is not a plain lower-case SQL identifier`);
  return value;
}

/** A (possibly schema-qualified) table name, quoted. */
export function tableRef(table: string): RawBuilder<unknown> {
  return sql.table(table);
}

/** A column name, quoted and unqualified (the statements never join two tables with these names). */
export function columnRef(column: string): RawBuilder<unknown> {
  return sql.ref(column);
}

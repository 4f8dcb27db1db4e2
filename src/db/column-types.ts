// Column types shared by the table types (schema.ts, schema-email.ts).
import type { ColumnType } from 'kysely';

/** timestamptz: read as a Date, written as a Date or an ISO string; optional on insert (a default). */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A json/jsonb column written as JSON text. */
export type Json<T> = ColumnType<T, string | null, string | null>;

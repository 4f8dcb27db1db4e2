// Column types shared by the table types (schema.ts, schema-email.ts, schema-wallet.ts).
import type { ColumnType } from 'kysely';

/** timestamptz: read as a Date, written as a Date or an ISO string; optional on insert (a default). */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A json/jsonb column written as JSON text. */
export type Json<T> = ColumnType<T, string | null, string | null>;

/** A template's kind (templates.type), also copied onto each email (emails.template_type). */
export type TemplateType = 'TRANSACTIONAL' | 'MARKETING';

/** The currencies a wallet may hold (the teams.currency CHECK); platform/money.ts formats them. */
export const CURRENCIES = ['USD', 'NGN', 'KES'] as const;
export type Currency = (typeof CURRENCIES)[number];

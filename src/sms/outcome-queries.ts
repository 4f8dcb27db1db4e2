// The worker's and the reports' status writes: one statement for many messages' outcome columns,
// with what follows from them (leaving the delivery queue, the provider's id). The caller has locked
// the rows in its transaction and records the events there (outcomes.ts).
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { SmsOutcomeRow } from './queries.ts';

/**
 * Writes the outcome columns of rows the caller has locked, matched by id, in one statement, with
 * what follows from them: a message leaves the delivery queue, and a provider's id first written is
 * kept for its reports. Answers the ids written. Every join is an index lookup by id.
 */
export async function writeSmsOutcomes(db: Db, rows: readonly SmsOutcomeRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const result = await smsOutcomesStatement(rows).execute(db);
  return new Set(result.rows.map((row) => row.id));
}

/** writeSmsOutcomes' statement for at least one row (exported for the plan tests). */
export function smsOutcomesStatement(rows: readonly SmsOutcomeRow[]): RawBuilder<{ id: string }> {
  // A batch's rows share their few timestamps (its `now`): each is formatted once.
  const formatted = new Map<number, string>();
  const iso = (at: Date | null) => {
    if (at === null) return null;
    let text = formatted.get(at.getTime());
    if (text === undefined) formatted.set(at.getTime(), (text = at.toISOString()));
    return text;
  };
  const text = <K extends keyof SmsOutcomeRow>(key: K) => rows.map((row) => row[key] as string | null);
  const time = (key: 'sent_at' | 'delivered_at' | 'updated_at') => rows.map((row) => iso(row[key]));
  const changes = changesTable([
    { name: 'id', type: 'text', values: text('id'), varies: true },
    { name: 'status', type: 'text', values: text('status') },
    { name: 'reason_code', type: 'text', values: text('reason_code') },
    { name: 'reason_message', type: 'text', values: text('reason_message') },
    { name: 'provider', type: 'text', values: text('provider') },
    { name: 'provider_message_id', type: 'text', values: text('provider_message_id') },
    { name: 'sent_at', type: 'timestamptz', values: time('sent_at') },
    { name: 'delivered_at', type: 'timestamptz', values: time('delivered_at') },
    { name: 'updated_at', type: 'timestamptz', values: time('updated_at') },
  ]);
  return sql<{ id: string }>`WITH c AS (${changes}),
    dequeued AS (DELETE FROM sms_deliveries d USING c WHERE d.sms_id = c.id RETURNING d.sms_id),
    written AS (
      UPDATE sms_messages m SET status = c.status, reason_code = c.reason_code, reason_message = c.reason_message,
        provider = c.provider, provider_message_id = c.provider_message_id, sent_at = c.sent_at,
        delivered_at = c.delivered_at, updated_at = c.updated_at
      FROM c WHERE m.id = c.id RETURNING m.*
    ),
    provider_ids AS (
      INSERT INTO sms_provider_ids (provider, provider_message_id, sms_id)
      SELECT provider, provider_message_id, id FROM written
      WHERE provider_message_id IS NOT NULL AND id IN (SELECT sms_id FROM dequeued)
    )
    SELECT id FROM written`;
}

interface ChangesColumn {
  name: string;
  type: 'text' | 'timestamptz';
  values: readonly (string | null)[];
  /** Always an array (the id): unnest needs one, and a single row would otherwise have none. */
  varies?: boolean;
}

/**
 * The rows' changes as a table `c`. A column every row shares (a batch's status, provider and
 * timestamps, its reasons) is one scalar parameter, not an array of copies: building and
 * parsing those arrays was a measurable part of the worker's and PostgreSQL's time per message.
 */
function changesTable(columns: readonly ChangesColumn[]): RawBuilder<unknown> {
  const arrays: RawBuilder<unknown>[] = [];
  const arrayNames: RawBuilder<unknown>[] = [];
  const select = columns.map(({ name, type, values, varies }) => {
    const column = sql.ref(name);
    if (varies !== true && values.every((value) => value === values[0]))
      return sql`${values[0]}::${sql.raw(type)} AS ${column}`;
    arrays.push(sql`(SELECT ${values}::${sql.raw(type)}[])`);
    arrayNames.push(column);
    return sql`u.${column}`;
  });
  return sql`SELECT ${sql.join(select)} FROM unnest(${sql.join(arrays)}) AS u (${sql.join(arrayNames)})`;
}

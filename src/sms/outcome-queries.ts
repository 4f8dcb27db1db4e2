// The worker's and the reports' status writes: one statement for many messages' outcome columns,
// with what follows from them (leaving the delivery queue, the provider's id, the webhook calls).
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/handle.ts';
import { smsEventCallsCte, type SmsStatusEvent } from '../webhooks/index.ts';
import type { SmsOutcomeRow } from './queries.ts';

/**
 * Writes the outcome columns of rows, matched by id, in one statement, with what follows from them:
 * a message leaves the delivery queue, and a provider's id first written is kept for its reports.
 * With `lease`, only messages whose queue row is still under that lease are written (a worker's
 * batch: another worker may have taken one over, or a report moved it), and `events` make webhook
 * calls built from the rows as written (each event's status is the only difference: sent, then
 * delivered); without it, the caller has locked the rows. Answers the ids written.
 *
 * Every join is an index lookup by id: the statement is prepared, and a generic plan that joined
 * two of its CTEs by a nested loop (their row counts unknown) would compare each row with each.
 * The arrays and the lease are sub-selects so that no plan sees their values: the first plans on
 * each connection are custom ones, and with the batch's size and a lease that statistics say no
 * row holds, PostgreSQL scanned the whole queue table for the lease instead.
 */
export async function writeSmsOutcomes(
  db: Db,
  rows: readonly SmsOutcomeRow[],
  guard: OutcomeGuard | null,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const result = await smsOutcomesStatement(rows, guard).execute(db);
  const written = new Set(result.rows.map((row) => row.id));
  if (guard?.queueRows === undefined || written.size === rows.length) return written;
  // A queue row no longer where its claim found it (a table rewrite) is looked up by id; a lease
  // another worker took over, or a message a report moved, is left alone by both statements.
  const missed = rows.filter((row) => !written.has(row.id));
  for (const id of await writeSmsOutcomes(db, missed, { lease: guard.lease, events: guard.events })) written.add(id);
  return written;
}

export interface OutcomeGuard {
  lease: Date;
  events: readonly SmsStatusEvent[];
  /**
   * Where each row's queue entry lies (its ctid, as the claim answered it), so the statement deletes
   * it there instead of looking it up by id. It stays there while the lease holds: nothing else
   * updates a leased queue row.
   */
  queueRows?: ReadonlyMap<string, string>;
}

/** writeSmsOutcomes' statement for at least one row (exported for the plan tests). */
export function smsOutcomesStatement(
  rows: readonly SmsOutcomeRow[],
  guard: OutcomeGuard | null,
): RawBuilder<{ id: string }> {
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
  const queueRows = guard?.queueRows;
  const changes = changesTable([
    { name: 'id', type: 'text', values: text('id'), varies: true },
    ...(queueRows === undefined
      ? []
      : [{ name: 'queue_row', type: 'tid' as const, values: rows.map((row) => queueRows.get(row.id) ?? null) }]),
    { name: 'status', type: 'text', values: text('status') },
    { name: 'reason_code', type: 'text', values: text('reason_code') },
    { name: 'reason_message', type: 'text', values: text('reason_message') },
    { name: 'provider', type: 'text', values: text('provider') },
    { name: 'provider_message_id', type: 'text', values: text('provider_message_id') },
    { name: 'sent_at', type: 'timestamptz', values: time('sent_at') },
    { name: 'delivered_at', type: 'timestamptz', values: time('delivered_at') },
    { name: 'updated_at', type: 'timestamptz', values: time('updated_at') },
    { name: 'events', type: 'text', values: eventsOf(rows, guard?.events ?? []) },
  ]);
  const set = sql`status = c.status, reason_code = c.reason_code, reason_message = c.reason_message,
    provider = c.provider, provider_message_id = c.provider_message_id, sent_at = c.sent_at,
    delivered_at = c.delivered_at, updated_at = c.updated_at`;
  return guard === null
    ? sql<{ id: string }>`WITH c AS (${changes}),
          dequeued AS (DELETE FROM sms_deliveries d USING c WHERE d.sms_id = c.id RETURNING d.sms_id),
          written AS (UPDATE sms_messages m SET ${set} FROM c WHERE m.id = c.id RETURNING m.*),
          provider_ids AS (
            INSERT INTO sms_provider_ids (provider, provider_message_id, sms_id)
            SELECT provider, provider_message_id, id FROM written
            WHERE provider_message_id IS NOT NULL AND id IN (SELECT sms_id FROM dequeued)
          )
          SELECT id FROM written`
    : sql<{ id: string }>`WITH c AS (${changes}),
          dequeued AS (
            DELETE FROM sms_deliveries d USING c
            WHERE ${queueRows === undefined ? sql`` : sql`d.ctid = c.queue_row AND`} d.sms_id = c.id
              AND d.lease_until = (SELECT ${guard.lease}::timestamptz)
            RETURNING c.*
          ),
          written AS (
            UPDATE sms_messages m SET ${set} FROM dequeued c WHERE m.id = c.id AND m.status = 'queued'
            RETURNING m.*, c.events
          ),
          provider_ids AS (
            INSERT INTO sms_provider_ids (provider, provider_message_id, sms_id)
            SELECT provider, provider_message_id, id FROM written WHERE provider_message_id IS NOT NULL
          ),
          ${smsEventCallsCte('written')}
          SELECT id FROM written`;
}

interface ChangesColumn {
  name: string;
  type: 'text' | 'timestamptz' | 'tid';
  values: readonly (string | null)[];
  /** Always an array (the id): unnest needs one, and a single row would otherwise have none. */
  varies?: boolean;
}

/**
 * The rows' changes as a table `c`. A column every row shares (a batch's status, provider and
 * timestamps, its reasons and events) is one scalar parameter, not an array of copies: building and
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

/** Each row's events, in order, as the comma-separated statuses smsEventCallsCte reads. */
function eventsOf(rows: readonly SmsOutcomeRow[], events: readonly SmsStatusEvent[]): string[] {
  const byId = new Map<string, string[]>();
  for (const event of events) {
    const statuses = byId.get(event.smsId);
    if (statuses === undefined) byId.set(event.smsId, [event.status]);
    else statuses.push(event.status);
  }
  return rows.map((row) => byId.get(row.id)?.join(',') ?? '');
}

// The SMS area's SQL, team id first: the messages, their queue rows and the operator's outbox
// (the send context's reads: context-queries.ts; status writes: outcome-queries.ts).
import { sql, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Database, SmsMessagesTable, SmsStatus } from '../db/schema.ts';

export type SmsRow = Selectable<SmsMessagesTable>;
/** The columns of a message that a status change reads or writes. */
export type SmsOutcomeRow = Pick<
  SmsRow,
  | 'id'
  | 'team_id'
  | 'status'
  | 'charge_transaction_id'
  | 'reason_code'
  | 'reason_message'
  | 'provider'
  | 'provider_message_id'
  | 'sent_at'
  | 'delivered_at'
  | 'updated_at'
>;
/** The delivery queue's row of a message stored `queued`: due at once. */
const queueRow = (row: SmsRow) => ({
  sms_id: row.id,
  team_id: row.team_id,
  created_at: row.created_at,
  next_attempt_at: row.created_at,
  to_number: row.to_number,
  sender_id: row.sender_id,
  body: row.body,
  charge_transaction_id: row.charge_transaction_id,
});

/** The key of a team's month in monthlyParts' answer. */
export const partsKey = (teamId: number, month: string) => `${teamId} ${month}`;

/** The parts each team sent in each month asked (first day of the month), by partsKey; none: absent. */
export async function monthlyParts(
  db: Db,
  asked: readonly { teamId: number; month: string }[],
): Promise<Map<string, number>> {
  const keys = [
    ...new Map(asked.map((a) => [partsKey(a.teamId, a.month), { team_id: a.teamId, month: a.month }])).values(),
  ];
  const rows = await sql<{ team_id: number; month: string; parts: string | number }>`
    SELECT v.team_id, to_char(v.month, 'YYYY-MM-DD') AS month, v.parts
    FROM sms_monthly_volume v
    JOIN jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) AS k (team_id int, month date)
      ON v.team_id = k.team_id AND v.month = k.month`.execute(db);
  return new Map(rows.rows.map((row) => [partsKey(row.team_id, row.month), Number(row.parts)]));
}

/**
 * Stores `queued` messages, queues them and adds their parts to their teams' months, in one
 * statement (the caller holds the teams' wallet locks, which order the months' parts).
 */
export async function insertSmsMany(db: Db, rows: readonly SmsRow[]): Promise<void> {
  if (rows.length === 0) return;
  const parts = new Map<string, { team_id: number; month: string; parts: bigint }>();
  for (const row of rows) {
    const month = `${row.created_at.toISOString().slice(0, 7)}-01`;
    const key = `${row.team_id} ${month}`;
    const entry = parts.get(key) ?? { team_id: row.team_id, month, parts: 0n };
    entry.parts += BigInt(row.segments);
    parts.set(key, entry);
  }
  await db
    .with('stored', (w) => w.insertInto('sms_messages').values([...rows]))
    .with('queued', (w) => w.insertInto('sms_deliveries').values(rows.map(queueRow)))
    .insertInto('sms_monthly_volume')
    .values([...parts.values()])
    .onConflict((oc) =>
      oc.columns(['team_id', 'month']).doUpdateSet({ parts: sql`sms_monthly_volume.parts + excluded.parts` }),
    )
    .execute();
}

export async function getSms(db: Db, teamId: number, id: string): Promise<SmsRow | undefined> {
  return db
    .selectFrom('sms_messages')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Newest first; `after` is the (created_at, id) of the previous page's last row. No index of
 * sms_messages names the status (0012_sms.sql): queued messages are listed through the delivery
 * queue's index, failed and rejected ones through their reason (only they have one); sent and
 * delivered ones, common or recent, along the team's list.
 */
export function listSmsQuery(
  db: Db,
  teamId: number,
  q: { status?: SmsStatus; after?: { createdAt: Date; id: string }; limit: number },
) {
  if (q.status === 'queued') {
    let queued = db
      .selectFrom('sms_deliveries as d')
      .innerJoin('sms_messages as m', 'm.id', 'd.sms_id')
      .selectAll('m')
      .where('d.team_id', '=', teamId)
      .where('m.status', '=', 'queued');
    if (q.after !== undefined)
      queued = queued.where(sql<boolean>`(d.created_at, d.sms_id) < (${q.after.createdAt}, ${q.after.id})`);
    return queued.orderBy('d.created_at', 'desc').orderBy('d.sms_id', 'desc').limit(q.limit);
  }
  let query = db.selectFrom('sms_messages').selectAll().where('team_id', '=', teamId);
  if (q.status !== undefined) query = query.where('status', '=', q.status);
  if (q.status === 'failed' || q.status === 'rejected') query = query.where('reason_code', 'is not', null);
  if (q.after !== undefined)
    query = query.where(sql<boolean>`(created_at, id) < (${q.after.createdAt}, ${q.after.id})`);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit);
}

export async function listSms(
  db: Db,
  teamId: number,
  q: { status?: SmsStatus; after?: { createdAt: Date; id: string }; limit: number },
): Promise<SmsRow[]> {
  return listSmsQuery(db, teamId, q).execute();
}

/**
 * The message a provider's report names, locked so reports for one message apply one at a time. No team
 * id: a verified report carries only the provider's id, unique per provider.
 */
export async function getSmsByProviderIdForUpdate(
  tx: Transaction<Database>,
  provider: string,
  providerMessageId: string,
): Promise<SmsRow | undefined> {
  return tx
    .selectFrom('sms_provider_ids as p')
    .innerJoin('sms_messages as m', 'm.id', 'p.sms_id')
    .selectAll('m')
    .where('p.provider', '=', provider)
    .where('p.provider_message_id', '=', providerMessageId)
    .forUpdate('m')
    .executeTakeFirst();
}

/**
 * Claimed messages (the worker's, of any team), locked for their outcomes with their queue rows; a
 * message whose lease is no longer ours (another worker took it over) or that left `queued` is absent.
 */
export async function getLeasedSmsForUpdate(
  tx: Transaction<Database>,
  ids: readonly string[],
  leaseUntil: Date,
): Promise<Map<string, SmsRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await lockedSmsStatement(ids).execute(tx);
  const ours = rows.filter((row) => row.status === 'queued' && row.lease_until?.getTime() === leaseUntil.getTime());
  return new Map(ours.map(({ lease_until: _, ...row }) => [row.id, row]));
}

/**
 * Messages and their queue rows locked by id (exported for the plan tests). Driven by the ids alone,
 * with no filter whose estimate the statistics can get wrong, so it is planned for as many rows as
 * ids: with the lease as a filter, estimated at one row, plans read the messages once per queue row.
 */
export function lockedSmsStatement(ids: readonly string[]): RawBuilder<SmsRow & { lease_until: Date | null }> {
  return sql<SmsRow & { lease_until: Date | null }>`
    SELECT m.*, d.lease_until FROM unnest(${ids}::text[]) AS i (id)
      JOIN sms_messages m ON m.id = i.id
      JOIN sms_deliveries d ON d.sms_id = i.id
    ORDER BY m.id
    FOR UPDATE OF m, d`;
}

/** What one-time codes show of their message's delivery; undefined when it is gone. */
export async function getSmsDelivery(db: Db, teamId: number, id: string) {
  return db
    .selectFrom('sms_messages')
    .select(['status', 'provider_message_id', 'reason_message'])
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * A team's messages with their queue rows and provider ids, for a team's deletion in its
 * transaction (no trigger and no foreign key follows the messages: see 0012_sms.sql).
 */
export async function deleteSmsOfTeam(db: Db, teamId: number): Promise<void> {
  await sql`WITH gone AS (DELETE FROM sms_messages WHERE team_id = ${teamId} RETURNING provider, provider_message_id),
      dequeued AS (DELETE FROM sms_deliveries WHERE team_id = ${teamId})
    DELETE FROM sms_provider_ids p USING gone g
    WHERE p.provider_message_id = g.provider_message_id AND p.provider = g.provider`.execute(db);
}

/** Operator-wide (not a team's): the log provider's copy of each message, once per message. */
export async function keepInOutbox(
  db: Db,
  row: { id: string; smsId: string; to: string; from: string; text: string; createdAt: Date },
): Promise<void> {
  await db
    .insertInto('sms_outbox')
    .values({
      id: row.id,
      sms_id: row.smsId,
      to_number: row.to,
      sender_id: row.from,
      body: row.text,
      created_at: row.createdAt,
    })
    .onConflict((oc) => oc.column('sms_id').doNothing())
    .execute();
}

/** Operator-wide, newest first. */
export async function listOutbox(db: Db, q: { to?: string; limit: number }) {
  let query = db.selectFrom('sms_outbox').select(['sms_id', 'to_number', 'sender_id', 'body', 'created_at']);
  if (q.to !== undefined) query = query.where('to_number', '=', q.to);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
}

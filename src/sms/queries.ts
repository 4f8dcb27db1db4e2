// Every SQL statement of the SMS area, team id first, but the status writes (outcome-queries.ts).
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
export interface RecentSends {
  toPrefix: number;
  toNumber: number;
  clientIp: number;
  sentToCountry: boolean;
}

/**
 * Whether the team has sent to the country: ordered by created_at, which only the (team_id, country,
 * created_at) index serves without a sort, so the planner does not answer it with a sequential scan
 * when a few teams' messages fill the table (migration 0035).
 */
export function sentToCountry(teamId: RawBuilder<unknown>, country: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`((SELECT true FROM sms_messages WHERE team_id = ${teamId} AND country = ${country}
    ORDER BY created_at LIMIT 1) IS NOT NULL)`;
}

/** What a send must know before it is charged, read in one statement. */
export interface SendContext {
  /** Undefined when the team does not exist. */
  team: { smsEnabled: boolean; currency: string } | undefined;
  /** The team's approved sender IDs for the destination country, oldest first. */
  senderIds: string[];
  recent: RecentSends;
}

/** One send's question to readSendContexts. */
export interface ContextQuery {
  teamId: number;
  country: string;
  toPrefix: string;
  toNumber: string;
  clientIpHash: Buffer | null;
  since: Date;
  cap: number;
}

/**
 * For each send, in order: the team's SMS switch and currency, its sender IDs for the country
 * (managed by wallet/sender-ids.ts, read here so a send costs one read) and the risk signals' counts
 * over its recent messages, in one statement for many sends (the API process coalesces them). Each
 * count stops at `cap` (LIMIT), so a pumping burst costs no more to measure than a normal send; its
 * ORDER BY created_at keeps it on its index: without it, when a few teams fill the table, the planner
 * expects `cap` matches early in a sequential scan and reads the whole table when there are few.
 */
export async function readSendContexts(db: Db, queries: readonly ContextQuery[]): Promise<SendContext[]> {
  const result = await sendContextsStatement(queries).execute(db);
  return result.rows.map((row) => ({
    team: row.sms_enabled === null ? undefined : { smsEnabled: row.sms_enabled, currency: row.currency! },
    senderIds: row.sender_ids,
    recent: {
      toPrefix: Number(row.to_prefix),
      toNumber: Number(row.to_number),
      clientIp: Number(row.client_ip),
      sentToCountry: row.sent_to_country,
    },
  }));
}

/** readSendContexts' statement (tests EXPLAIN it). */
export function sendContextsStatement(queries: readonly ContextQuery[]) {
  const input = queries.map((q, n) => ({
    n,
    team_id: q.teamId,
    country: q.country,
    to_prefix: q.toPrefix,
    to_number: q.toNumber,
    client_ip_hash: q.clientIpHash?.toString('hex') ?? null,
    since: q.since.toISOString(),
    cap: q.cap,
  }));
  return sql<{
    sms_enabled: boolean | null;
    currency: string | null;
    sender_ids: string[];
    to_prefix: string;
    to_number: string;
    client_ip: string;
    sent_to_country: boolean;
  }>`
    SELECT
      t.sms_enabled, t.currency,
      ARRAY(SELECT s.sender_id FROM sender_ids s
        WHERE s.team_id = q.team_id AND s.country = q.country AND s.deleted_at IS NULL
        ORDER BY s.created_at, s.id) AS sender_ids,
      (SELECT count(*) FROM (SELECT 1 FROM sms_messages
         WHERE team_id = q.team_id AND to_prefix = q.to_prefix AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) p) AS to_prefix,
      (SELECT count(*) FROM (SELECT 1 FROM sms_messages
         WHERE team_id = q.team_id AND to_prefix = q.to_prefix AND to_number = q.to_number
           AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) n) AS to_number,
      (SELECT count(*) FROM (SELECT 1 FROM sms_messages
         WHERE team_id = q.team_id AND client_ip_hash = decode(q.client_ip_hash, 'hex')
           AND created_at > q.since
         ORDER BY created_at DESC LIMIT q.cap) i) AS client_ip,
      ${sentToCountry(sql`q.team_id`, sql`q.country`)} AS sent_to_country
    FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
      AS q (n int, team_id int, country text, to_prefix text, to_number text, client_ip_hash text, since timestamptz, cap int)
    LEFT JOIN teams t ON t.id = q.team_id
    ORDER BY q.n
  `;
}

/** Adds a message's parts to the team's month; returns the parts sent before it (the price tier's volume). */
export async function countMonthlyParts(db: Db, teamId: number, month: string, parts: number): Promise<number> {
  const row = await db
    .insertInto('sms_monthly_volume')
    .values({ team_id: teamId, month, parts: BigInt(parts) })
    .onConflict((oc) =>
      oc.columns(['team_id', 'month']).doUpdateSet({ parts: sql`sms_monthly_volume.parts + ${BigInt(parts)}` }),
    )
    .returning('parts')
    .executeTakeFirstOrThrow();
  return Number(BigInt(row.parts) - BigInt(parts));
}

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

/** Stores a `queued` message with its row in the delivery queue, in one statement. */
export async function insertSms(db: Db, row: SmsRow): Promise<void> {
  await db
    .with('stored', (w) => w.insertInto('sms_messages').values(row))
    .insertInto('sms_deliveries')
    .values(queueRow(row))
    .execute();
}

/** Parts each team sent in `month` so far (absent: none). */
export async function monthlyParts(db: Db, teamIds: readonly number[], month: string): Promise<Map<number, number>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('sms_monthly_volume')
    .select(['team_id', 'parts'])
    .where('team_id', 'in', [...new Set(teamIds)])
    .where('month', '=', sql<Date>`${month}::date`)
    .execute();
  return new Map(rows.map((row) => [row.team_id, Number(row.parts)]));
}

/** Stores many `queued` messages, queues them and adds their parts to their teams' month, in one statement. */
export async function insertSmsMany(db: Db, rows: readonly SmsRow[], month: string): Promise<void> {
  if (rows.length === 0) return;
  const parts = new Map<number, number>();
  for (const row of rows) parts.set(row.team_id, (parts.get(row.team_id) ?? 0) + row.segments);
  await db
    .with('stored', (w) => w.insertInto('sms_messages').values([...rows]))
    .with('queued', (w) => w.insertInto('sms_deliveries').values(rows.map(queueRow)))
    .insertInto('sms_monthly_volume')
    .values([...parts].map(([teamId, count]) => ({ team_id: teamId, month, parts: BigInt(count) })))
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
 * sms_messages names the status (migration 0037): queued messages are listed through the delivery
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
 * message whose lease is no longer ours (another worker took it over) is absent.
 */
export async function getLeasedSmsForUpdate(
  tx: Transaction<Database>,
  ids: readonly string[],
  leaseUntil: Date,
): Promise<Map<string, SmsRow>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .selectFrom('sms_messages as m')
    .innerJoin('sms_deliveries as d', 'd.sms_id', 'm.id')
    .selectAll('m')
    .where('m.id', 'in', [...ids])
    .where('m.status', '=', 'queued')
    .where('d.lease_until', '=', leaseUntil)
    .orderBy('m.id')
    .forUpdate(['m', 'd'])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
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

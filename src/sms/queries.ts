// Every SQL statement of the SMS area, team id first.
import { sql, type Selectable, type Transaction } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Database, SmsMessagesTable, SmsStatus } from '../db/schema.ts';

export type SmsRow = Selectable<SmsMessagesTable>;
export interface SmsTeam {
  sms_enabled: boolean;
  currency: string;
}

export async function getSmsTeam(db: Db, teamId: number): Promise<SmsTeam | undefined> {
  return db.selectFrom('teams').select(['sms_enabled', 'currency']).where('id', '=', teamId).executeTakeFirst();
}

export interface RecentSends {
  toPrefix: number;
  toNumber: number;
  clientIp: number;
  sentToCountry: boolean;
}

/**
 * The risk signals' counts over the team's recent messages, in one statement. Each count stops at
 * `cap` (LIMIT), so a pumping burst costs no more to measure than a normal send.
 */
export async function countRecentSends(
  db: Db,
  teamId: number,
  q: { toPrefix: string; toNumber: string; clientIpHash: Buffer | null; country: string; since: Date; cap: number },
): Promise<RecentSends> {
  const result = await sql<{ to_prefix: string; to_number: string; client_ip: string; sent_to_country: boolean }>`
    SELECT
      (SELECT count(*) FROM (SELECT 1 FROM sms_messages
         WHERE team_id = ${teamId} AND to_prefix = ${q.toPrefix} AND created_at > ${q.since} LIMIT ${q.cap}) p) AS to_prefix,
      (SELECT count(*) FROM (SELECT 1 FROM sms_messages
         WHERE team_id = ${teamId} AND to_prefix = ${q.toPrefix} AND to_number = ${q.toNumber}
           AND created_at > ${q.since} LIMIT ${q.cap}) n) AS to_number,
      (SELECT count(*) FROM (SELECT 1 FROM sms_messages
         WHERE team_id = ${teamId} AND client_ip_hash = ${q.clientIpHash} AND created_at > ${q.since} LIMIT ${q.cap}) i) AS client_ip,
      EXISTS (SELECT 1 FROM sms_messages WHERE team_id = ${teamId} AND country = ${q.country}) AS sent_to_country
  `.execute(db);
  const row = result.rows[0]!;
  return {
    toPrefix: Number(row.to_prefix),
    toNumber: Number(row.to_number),
    clientIp: Number(row.client_ip),
    sentToCountry: row.sent_to_country,
  };
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

export async function insertSms(db: Db, row: Omit<SmsRow, 'attempts' | 'recorded_attempts'>): Promise<void> {
  await db.insertInto('sms_messages').values(row).execute();
}

export async function getSms(db: Db, teamId: number, id: string): Promise<SmsRow | undefined> {
  return db
    .selectFrom('sms_messages')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Newest first; `after` is the (created_at, id) of the previous page's last row. */
export async function listSms(
  db: Db,
  teamId: number,
  q: { status?: SmsStatus; after?: { createdAt: Date; id: string }; limit: number },
): Promise<SmsRow[]> {
  let query = db.selectFrom('sms_messages').selectAll().where('team_id', '=', teamId);
  if (q.status !== undefined) query = query.where('status', '=', q.status);
  if (q.after !== undefined)
    query = query.where(sql<boolean>`(created_at, id) < (${q.after.createdAt}, ${q.after.id})`);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
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
    .selectFrom('sms_messages')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_message_id', '=', providerMessageId)
    .forUpdate()
    .executeTakeFirst();
}

/** A claimed message (the worker's, of any team), locked for its outcome; none when the lease is no longer ours. */
export async function getLeasedSmsForUpdate(
  tx: Transaction<Database>,
  id: string,
  leaseUntil: Date,
): Promise<SmsRow | undefined> {
  return tx
    .selectFrom('sms_messages')
    .selectAll()
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .where('lease_until', '=', leaseUntil)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateSms(
  db: Db,
  teamId: number,
  id: string,
  changes: Partial<Omit<SmsRow, 'id' | 'team_id'>>,
): Promise<void> {
  await db.updateTable('sms_messages').set(changes).where('team_id', '=', teamId).where('id', '=', id).execute();
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

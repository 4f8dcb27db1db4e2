// Every SQL statement of direct delivery's destinations (0017_destinations.sql). A destination is a
// recipient domain's MX host set, shared by every team that mails there: these tables hold no
// tenant data and are read and written by destination, not by team.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DestinationBackoff } from '../adapters/mail-transport/index.ts';
import type { Database } from '../db/schema.ts';

interface BackoffRow {
  paused_until: Date | string;
  connections: number;
  failures: number;
  reason: string;
}

export function backoffOf(row: BackoffRow): DestinationBackoff {
  return {
    pausedUntil: new Date(row.paused_until),
    connections: Number(row.connections),
    failures: Number(row.failures),
    reason: row.reason,
  };
}

/**
 * One free slot below `limit` (or the back-off's lower limit) taken for `holder`, unless the
 * destination is paused; and its back-off. A slot whose lease lapsed is free. Two processes that
 * pick the same free slot: the second's conflict update finds a live lease and takes nothing.
 */
export async function takeDestinationSlot(
  db: Kysely<Database>,
  destination: string,
  limit: number,
  holder: string,
  now: Date,
  leaseUntil: Date,
): Promise<{ slot: number | null; backoff: BackoffRow | null }> {
  const result = await sql<{ slot: number | null } & Partial<BackoffRow>>`
    WITH backoff AS (
      SELECT paused_until, connections, failures, reason FROM destination_backoffs WHERE destination = ${destination}
    ),
    free AS (
      SELECT s FROM generate_series(0, LEAST(${limit}::int, COALESCE((SELECT connections FROM backoff), ${limit}::int)) - 1) AS s
      WHERE NOT EXISTS (
        SELECT 1 FROM destination_slots t WHERE t.destination = ${destination} AND t.slot = s AND t.lease_until > ${now})
        AND NOT EXISTS (SELECT 1 FROM backoff WHERE paused_until > ${now})
      ORDER BY s LIMIT 1
    ),
    taken AS (
      INSERT INTO destination_slots (destination, slot, holder, lease_until)
      SELECT ${destination}, s, ${holder}, ${leaseUntil} FROM free
      ON CONFLICT (destination, slot) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
        WHERE destination_slots.lease_until <= ${now}
      RETURNING slot
    )
    SELECT (SELECT slot FROM taken) AS slot, b.paused_until, b.connections, b.failures, b.reason
    FROM (SELECT 1) AS one LEFT JOIN backoff AS b ON true`.execute(db);
  const row = result.rows[0]!;
  return {
    slot: row.slot === null ? null : Number(row.slot),
    backoff: row.reason === null || row.reason === undefined ? null : (row as BackoffRow),
  };
}

export async function releaseDestinationSlot(
  db: Kysely<Database>,
  destination: string,
  slot: number,
  holder: string,
): Promise<void> {
  await db
    .deleteFrom('destination_slots')
    .where('destination', '=', destination)
    .where('slot', '=', slot)
    .where('holder', '=', holder)
    .execute();
}

/** Moves the lease of the slots `holder` holds for its open sessions. */
export async function renewDestinationSlots(
  db: Kysely<Database>,
  holder: string,
  slots: readonly { destination: string; slot: number }[],
  leaseUntil: Date,
): Promise<void> {
  await sql`
    UPDATE destination_slots t SET lease_until = ${leaseUntil}
    FROM unnest(${slots.map((s) => s.destination)}::text[], ${slots.map((s) => s.slot)}::int[]) AS h (destination, slot)
    WHERE t.holder = ${holder} AND t.destination = h.destination AND t.slot = h.slot`.execute(db);
}

export async function releaseHolderSlots(db: Kysely<Database>, holder: string): Promise<void> {
  await db.deleteFrom('destination_slots').where('holder', '=', holder).execute();
}

/** The destination's back-off, locked for the rest of the transaction (a row or not: an advisory lock). */
export async function lockDestinationBackoff(
  tx: Transaction<Database>,
  destination: string,
): Promise<BackoffRow | null> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`destination:${destination}`}))`.execute(tx);
  const row = await tx
    .selectFrom('destination_backoffs')
    .select(['paused_until', 'connections', 'failures', 'reason'])
    .where('destination', '=', destination)
    .executeTakeFirst();
  return row ?? null;
}

export async function saveDestinationBackoff(
  tx: Transaction<Database>,
  destination: string,
  backoff: DestinationBackoff | null,
  now: Date,
): Promise<void> {
  if (backoff === null) {
    await tx.deleteFrom('destination_backoffs').where('destination', '=', destination).execute();
    return;
  }
  const row = {
    paused_until: backoff.pausedUntil,
    connections: backoff.connections,
    failures: backoff.failures,
    reason: backoff.reason.slice(0, 500),
    updated_at: now,
  };
  await tx
    .insertInto('destination_backoffs')
    .values({ destination, ...row })
    .onConflict((oc) => oc.column('destination').doUpdateSet(row))
    .execute();
}

/** Every backed-off destination with the slots held to it now, paused ones first. */
export async function listDestinationBackoffs(db: Kysely<Database>, now: Date) {
  return db
    .selectFrom('destination_backoffs as b')
    .select((eb) => [
      'b.destination',
      'b.paused_until',
      'b.connections',
      'b.failures',
      'b.reason',
      'b.updated_at',
      eb
        .selectFrom('destination_slots as s')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('s.destination', '=', 'b.destination')
        .where('s.lease_until', '>', now)
        .as('open_connections'),
    ])
    .orderBy('b.paused_until', 'desc')
    .orderBy('b.destination')
    .execute();
}

// Every SQL statement of retention: the partitions of a table read from the catalogue, a month
// partition made ahead, a month dropped, the rows that hold a month back, and emails' bodies removed
// in batches. Partition and table names come from families.ts and the catalogue, never from input.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface PartitionRow {
  name: string;
  /** The partition's bound as PostgreSQL prints it: `FOR VALUES FROM (…) TO (…)` or `DEFAULT`. */
  bound: string;
  /** The planner's estimate (reltuples), -1 before the first ANALYZE. */
  estimatedRows: number;
  bytes: number;
}

/** The partitions of `table`, each with its bound, size on disk (table, indexes, TOAST) and row estimate. */
export async function listPartitions(db: Kysely<Database>, table: string): Promise<PartitionRow[]> {
  const { rows } = await sql<{ name: string; bound: string; estimated_rows: number; bytes: string }>`
    SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound,
      c.reltuples::float8 AS estimated_rows, pg_total_relation_size(c.oid)::text AS bytes
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = to_regclass(${table})
    ORDER BY c.relname`.execute(db);
  return rows.map((r) => ({
    name: r.name,
    bound: r.bound,
    estimatedRows: Number(r.estimated_rows),
    bytes: Number(r.bytes),
  }));
}

/** The exact count of a partition's rows (for small partitions, whose estimate may be stale). */
export async function countRows(db: Kysely<Database>, partition: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql.table(partition)}`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * Makes `table`'s partition of `month` unless it exists, referencing `reference.root`'s partition of
 * the same month by `reference.column` for a child table; false when the DEFAULT partition holds
 * rows of that month.
 */
export async function ensureMonthPartition(
  db: Kysely<Database>,
  table: string,
  prefix: string,
  month: Date,
  options = '',
  reference: { root: string; column: string } | null = null,
): Promise<boolean> {
  const { rows } = await sql<{ made: boolean }>`
    SELECT herald_month_partition(${table}, ${prefix}, ${month.toISOString().slice(0, 10)}::date, ${options},
      ${reference?.root ?? null}, ${reference?.column ?? null}) AS made`.execute(db);
  return rows[0]!.made;
}

/** How many of the partition's rows (1000 at most) match `where` (a family's rows not yet final). */
export async function holdsRowsWhere(db: Kysely<Database>, partition: string, where: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT count(*)::text AS n FROM (SELECT 1 FROM ${sql.table(partition)} WHERE ${sql.raw(where)} LIMIT 1000) held`.execute(
    db,
  );
  return Number(rows[0]!.n);
}

/**
 * Locks a family's tables, root first as every write takes them (an email, then its events), so a
 * drop waits for the writes in flight instead of deadlocking with them; gives up after
 * `timeoutMs` (55P03) rather than hold new writes queued behind it for long.
 */
export async function lockFamily(tx: Kysely<Database>, tables: string[], timeoutMs: number): Promise<void> {
  await waitForLocksAtMost(tx, timeoutMs);
  await sql`LOCK TABLE ${sql.join(tables.map((t) => sql.table(t)))} IN ACCESS EXCLUSIVE MODE`.execute(tx);
}

/** The rest of the caller's transaction gives up on a lock after `timeoutMs` (55P03). */
export async function waitForLocksAtMost(tx: Kysely<Database>, timeoutMs: number): Promise<void> {
  await sql`SELECT set_config('lock_timeout', ${`${timeoutMs}ms`}, true)`.execute(tx);
}

/** Detaches `partition` from `table` (the caller's transaction; children before their root). */
export async function detachPartition(tx: Kysely<Database>, table: string, partition: string): Promise<void> {
  await sql`ALTER TABLE ${sql.table(table)} DETACH PARTITION ${sql.table(partition)}`.execute(tx);
}

/** Detaches and drops `partition` of `table` (the caller's transaction; children before their root). */
export async function dropPartition(tx: Kysely<Database>, table: string, partition: string): Promise<void> {
  await detachPartition(tx, table, partition);
  await dropTables(tx, [partition]);
}

/** Drops detached partitions, a month's family in one statement (its keys point inside it). */
export async function dropTables(db: Kysely<Database>, tables: string[]): Promise<void> {
  await sql`DROP TABLE IF EXISTS ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
}

/**
 * Tables named as partitions of `tables` that are no partition: a month detached by a run that
 * stopped before it dropped them.
 */
export async function detachedPartitions(db: Kysely<Database>, tables: string[]): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c
    WHERE c.relkind = 'r' AND NOT c.relispartition AND c.relnamespace = current_schema()::regnamespace
      AND c.relname ~ ${`^(${tables.join('|')})_(m[0-9]{6}|before_[0-9]{6})$`}
    ORDER BY c.relname`.execute(db);
  return rows.map((r) => r.name);
}

/** The last id whose body retention looked at ('' before the first run). */
export async function bodiesMark(db: Kysely<Database>, name: string): Promise<string> {
  const row = await db.selectFrom('retention_marks').select('bodies_upto').where('name', '=', name).executeTakeFirst();
  return row?.bodies_upto ?? '';
}

/**
 * Removes html, text and attachments of the final emails among the next `limit` ids after `after`
 * and below `to`, and keeps the last id looked at as the mark the next batch starts after; `last` is
 * null when none was left. An email not yet final keeps its body (it is still to be sent).
 */
export async function removeEmailBodies(
  tx: Kysely<Database>,
  after: string,
  to: string,
  limit: number,
  now: Date,
): Promise<{ last: string | null; removed: number }> {
  const { rows } = await sql<{ id: string; removed: boolean }>`
    WITH batch AS (
      SELECT id, status FROM emails WHERE id > ${after} AND id < ${to} ORDER BY id LIMIT ${limit}
    ),
    emptied AS (
      UPDATE emails e SET html = NULL, text = NULL, body_removed_at = ${now}
      FROM batch b
      WHERE e.id = b.id AND b.status NOT IN ('QUEUED', 'SCHEDULED') AND e.body_removed_at IS NULL
      RETURNING e.id
    ),
    attachments AS (
      DELETE FROM email_attachments a USING emptied x WHERE a.email_id = x.id
    )
    SELECT b.id, (x.id IS NOT NULL) AS removed FROM batch b LEFT JOIN emptied x ON x.id = b.id ORDER BY b.id`.execute(
    tx,
  );
  const last = rows.at(-1)?.id ?? null;
  await tx
    .insertInto('retention_marks')
    .values({ name: 'emails', bodies_upto: last ?? to })
    // Never back: a longer HERALD_RETENTION_BODIES_DAYS does not make a run read again what it emptied.
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({ bodies_upto: sql`greatest(retention_marks.bodies_upto, excluded.bodies_upto)` }),
    )
    .execute();
  return { last, removed: rows.filter((r) => r.removed).length };
}

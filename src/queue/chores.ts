// Periodic chores (purge expired idempotency keys, roll up analytics, ...) share the claim pattern of
// the queues, on the platform's `chores` table: a chore is due at next_run_at, a lease plus SKIP LOCKED
// lets exactly one of many worker processes run it, and an expired lease lets another take over.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { QueueLogger } from './types.ts';

export interface ChoreContext {
  name: string;
  db: Kysely<Database>;
  clock: Clock;
  /** The clock's time when the chore was claimed; the next run is everyMs after it. */
  startedAt: Date;
  /** Aborted when stop() gives up waiting; the chore is released for another process then. */
  signal: AbortSignal;
  logger: QueueLogger;
}

export interface ChoreOptions {
  /** Primary key in the chores table: one schedule per name across every process. */
  name: string;
  everyMs: number;
  /** Longer than a run can take. Default: 5 minutes. */
  leaseMs?: number;
  run(ctx: ChoreContext): Promise<void>;
}

export interface Chore {
  readonly name: string;
  readonly everyMs: number;
  readonly leaseMs: number;
  readonly run: (ctx: ChoreContext) => Promise<void>;
}

export function defineChore(options: ChoreOptions): Chore {
  for (const [what, value] of [
    ['everyMs', options.everyMs],
    ['leaseMs', options.leaseMs ?? 1],
  ] as const) {
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`chore ${options.name}: ${what} must be a positive integer`);
  }
  return { name: options.name, everyMs: options.everyMs, leaseMs: options.leaseMs ?? 300_000, run: options.run };
}

/** Adds missing chores, due at once. Existing schedules are kept: a restart does not rerun a chore early. */
export async function registerChores(db: Kysely<Database>, chores: readonly Chore[], now: Date): Promise<void> {
  if (chores.length === 0) return;
  await db
    .insertInto('chores')
    .values(chores.map((chore) => ({ name: chore.name, next_run_at: now })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export interface ClaimedChore {
  chore: Chore;
  leaseUntil: Date;
}

/** Claims the due chores among `chores` that no live lease holds, each with its own lease length. */
export async function claimDueChores(
  db: Kysely<Database>,
  chores: readonly Chore[],
  now: Date,
): Promise<ClaimedChore[]> {
  if (chores.length === 0) return [];
  const names = chores.map((chore) => chore.name);
  const leases = chores.map((chore) => new Date(now.getTime() + chore.leaseMs));
  const result = await sql<{ name: string; lease_until: Date }>`
    UPDATE chores SET lease_until = wanted.lease_until
    FROM unnest(${names}::text[], ${leases}::timestamptz[]) AS wanted(name, lease_until)
    WHERE chores.name = wanted.name AND chores.name IN (
      SELECT name FROM chores
      WHERE name = ANY(${names}::text[]) AND next_run_at <= ${now}::timestamptz
        AND (lease_until IS NULL OR lease_until < ${now}::timestamptz)
      FOR UPDATE SKIP LOCKED
    )
    RETURNING chores.name, chores.lease_until`.execute(db);
  const byName = new Map(chores.map((chore) => [chore.name, chore]));
  return result.rows.flatMap((row) => {
    const chore = byName.get(row.name);
    return chore === undefined ? [] : [{ chore, leaseUntil: row.lease_until }];
  });
}

/**
 * Records a run and schedules the next one everyMs after this one started (not after it finished,
 * so a slow chore does not drift). A failed run waits for its next turn like a successful one; its
 * error stays in last_error until a run succeeds.
 */
export async function finishChore(
  db: Kysely<Database>,
  claimed: ClaimedChore,
  startedAt: Date,
  error: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('chores')
    .set({
      next_run_at: new Date(startedAt.getTime() + claimed.chore.everyMs),
      last_run_at: startedAt,
      lease_until: null,
      last_error: error,
    })
    .where('name', '=', claimed.chore.name)
    // Our lease only: if it ran out and another process took the chore, that run's record stands.
    .where('lease_until', '=', claimed.leaseUntil)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Hands an unfinished chore back at shutdown; next_run_at is untouched, so it is due again at once. */
export async function releaseChore(db: Kysely<Database>, claimed: ClaimedChore): Promise<void> {
  await db
    .updateTable('chores')
    .set({ lease_until: null })
    .where('name', '=', claimed.chore.name)
    .where('lease_until', '=', claimed.leaseUntil)
    .execute();
}

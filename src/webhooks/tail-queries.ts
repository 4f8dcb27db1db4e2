// The SQL of the event tail (0024_webhook_event_tail.sql): keeping a team's tail open, and reading
// its events in the order the tail shows them. The writers are in event-call-queries.ts.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A place in a team's tail: after the event (xid, id); (horizon, 0) is "after everything settled". */
export interface TailPosition {
  xid: string;
  id: string;
}

export interface TailEventRow extends TailPosition {
  type: string;
  payload: string;
  created_at: Date;
}

/** Records the team's events for the tail until `until` (never shortens what another reader asked). */
export async function openTail(db: Kysely<Database>, teamId: number, until: Date): Promise<void> {
  await sql`
    INSERT INTO webhook_tails (team_id, open_until) VALUES (${teamId}, ${until})
    ON CONFLICT (team_id) DO UPDATE SET open_until = greatest(webhook_tails.open_until, excluded.open_until)`.execute(
    db,
  );
}

/**
 * The team's settled events after `after` (oldest first, at most `limit`), or its newest `limit`
 * (still oldest first) when `after` is null; and the horizon: the oldest transaction still running,
 * before which every event has committed or never will. Events of later transactions wait for the
 * next read, so one that commits late is shown late rather than skipped.
 */
export async function readTail(
  db: Kysely<Database>,
  teamId: number,
  after: TailPosition | null,
  limit: number,
): Promise<{ horizon: string; rows: TailEventRow[] }> {
  const page =
    after === null
      ? sql`SELECT * FROM (
          SELECT e.xid, e.id, e.type, e.payload, e.created_at FROM webhook_tail_events e
          WHERE e.team_id = ${teamId} AND e.xid < h.xmin
          ORDER BY e.xid DESC, e.id DESC LIMIT ${limit}) newest`
      : sql`SELECT e.xid, e.id, e.type, e.payload, e.created_at FROM webhook_tail_events e
          WHERE e.team_id = ${teamId} AND (e.xid, e.id) > (${after.xid}::xid8, ${after.id}::bigint) AND e.xid < h.xmin
          ORDER BY e.xid, e.id LIMIT ${limit}`;
  const result = await sql<{ horizon: string } & { [K in keyof TailEventRow]: TailEventRow[K] | null }>`
    WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
    SELECT h.xmin::text AS horizon, p.xid::text AS xid, p.id::text AS id, p.type, p.payload, p.created_at
    FROM h LEFT JOIN LATERAL (${page}) p ON true
    ORDER BY p.xid, p.id`.execute(db);
  const horizon = result.rows[0]!.horizon;
  const rows = result.rows.filter((row): row is typeof row & TailEventRow => row.id !== null);
  return { horizon, rows };
}

/** The tail's events older than `before`: a tail shows what happens while it runs, not a history. */
export async function purgeTailEvents(db: Kysely<Database>, before: Date): Promise<number> {
  const teams = await sql<{ team_id: number }>`SELECT team_id FROM webhook_tails`.execute(db);
  let purged = 0;
  for (const { team_id: teamId } of teams.rows) {
    const result = await sql`
      DELETE FROM webhook_tail_events WHERE team_id = ${teamId} AND created_at < ${before}`.execute(db);
    purged += Number(result.numAffectedRows ?? 0n);
  }
  return purged;
}

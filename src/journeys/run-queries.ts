// SQL of journey runs and the journey's stats counters. Every run change that moves a run between
// states goes with a counters update in the same transaction (stats are read, never counted).
//
// Lock order, the same for every writer so none can deadlock another: the journey row (a status
// change or edit FOR UPDATE, an enrolment FOR SHARE, the runner FOR KEY SHARE), then contacts (an
// unsubscribe or a delete), then runs in id order, then the journey_stats rows in journey id order.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { ExitReason, JourneyRunsTable, JourneyStatsTable, RunStatus } from '../db/schema.ts';
import { newId } from '../platform/ids.ts';
import type { HistoryEntry } from './schemas.ts';

/**
 * A run is taken when its journey is ACTIVE and every email its last turn queued has left the
 * queue: an EMAIL step is done when its email is sent (turn-plan.ts). Primary-key reads of the
 * run's few emails, team id first.
 */
export const RUN_READY = sql`status = 'ACTIVE'
  AND EXISTS (SELECT 1 FROM journeys j WHERE j.id = journey_runs.journey_id AND j.status = 'ACTIVE')
  AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.team_id = journey_runs.team_id
    AND e.id = ANY (journey_runs.awaiting_email_ids) AND e.status IN ('QUEUED', 'SCHEDULED'))`;

export type RunRow = Selectable<JourneyRunsTable>;

export interface CounterChange {
  enrolled?: number;
  active?: number;
  completed?: number;
  exited?: number;
  failed?: number;
  /** step id -> emails sent */
  sent?: Record<string, number>;
}

export type StatsRow = Selectable<JourneyStatsTable>;

/** The counters row of a new journey, in the transaction that inserts it. */
export async function insertStats(db: Db, teamId: number, journeyId: string): Promise<void> {
  await db.insertInto('journey_stats').values({ journey_id: journeyId, team_id: teamId }).execute();
}

/** The stats of the team's journeys, by journey id: a primary-key read each. */
export async function getStats(db: Db, teamId: number, journeyIds: readonly string[]): Promise<Map<string, StatsRow>> {
  if (journeyIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('journey_stats')
    .selectAll()
    .where('team_id', '=', teamId)
    .where(sql<boolean>`journey_id = ANY (${[...journeyIds]}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.journey_id, row]));
}

/** Adds to the journey's stats counters. */
export async function bumpCounters(db: Db, teamId: number, journeyId: string, change: CounterChange): Promise<void> {
  let sentByStep = sql`sent_by_step`;
  for (const [stepId, count] of Object.entries(change.sent ?? {})) {
    sentByStep = sql`jsonb_set(${sentByStep}, ARRAY[${stepId}::text], to_jsonb(coalesce((sent_by_step ->> ${stepId}::text)::integer, 0) + ${count}::integer))`;
  }
  await sql`UPDATE journey_stats SET
      enrolled = enrolled + ${change.enrolled ?? 0}::integer,
      active = active + ${change.active ?? 0}::integer,
      completed = completed + ${change.completed ?? 0}::integer,
      exited = exited + ${change.exited ?? 0}::integer,
      failed = failed + ${change.failed ?? 0}::integer,
      sent_by_step = ${sentByStep}
    WHERE team_id = ${teamId}::integer AND journey_id = ${journeyId}::text`.execute(db);
}

/** Enrols contacts (a run each at step 0, due now); contacts already on the journey are skipped. */
export async function insertRuns(
  db: Db,
  teamId: number,
  journeyId: string,
  contactIds: readonly string[],
  now: Date,
): Promise<RunRow[]> {
  if (contactIds.length === 0) return [];
  const { rows } = await insertRunsStatement(teamId, journeyId, contactIds, now, sql`RETURNING *`).execute(db);
  return rows as RunRow[];
}

/** insertRuns answering only how many it enrolled (CONTACT_ADDED: a bulk add of 1,000 returns no rows). */
export async function enrollContacts(
  db: Db,
  teamId: number,
  journeyId: string,
  contactIds: readonly string[],
  now: Date,
): Promise<number> {
  if (contactIds.length === 0) return 0;
  const result = await insertRunsStatement(teamId, journeyId, contactIds, now, sql``).execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

function insertRunsStatement(
  teamId: number,
  journeyId: string,
  contactIds: readonly string[],
  now: Date,
  returning: ReturnType<typeof sql>,
) {
  // Ids made here: time-ordered like every id, without a function call per row in SQL.
  const ids = contactIds.map(() => newId('jrun_', now)).sort();
  return sql<RunRow>`
    INSERT INTO journey_runs (id, team_id, journey_id, contact_id, status, current_step_index, next_run_at, created_at, updated_at)
    SELECT run.id, ${teamId}::integer, ${journeyId}::text, run.contact_id, 'ACTIVE', 0,
           ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
    FROM unnest(${ids}::text[], ${[...contactIds]}::text[]) AS run(id, contact_id)
    ON CONFLICT (journey_id, contact_id) DO NOTHING
    ${returning}`;
}

export function getRunOfContact(
  db: Db,
  teamId: number,
  journeyId: string,
  contactId: string,
): Promise<RunRow | undefined> {
  return db
    .selectFrom('journey_runs')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('journey_id', '=', journeyId)
    .where('contact_id', '=', contactId)
    .executeTakeFirst();
}

/** Newest first; `after` is the last row of the previous page. */
export function listRuns(
  db: Db,
  teamId: number,
  journeyId: string,
  options: { status?: RunStatus | undefined; after?: { createdAt: Date; id: string } | undefined; limit: number },
): Promise<RunRow[]> {
  let query = db
    .selectFrom('journey_runs')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('journey_id', '=', journeyId);
  if (options.status !== undefined) query = query.where('status', '=', options.status);
  if (options.after !== undefined) {
    const { createdAt, id } = options.after;
    query = query.where(sql<boolean>`(created_at, id) < (${createdAt}::timestamptz, ${id}::text)`);
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

/**
 * The runs, locked, that are still ACTIVE under this lease (the others ended meanwhile or another
 * worker took them over). A claimed row carries its team and the lease names the claim, so no team
 * id is needed to find them (the queue's claim is multi-team too).
 */
export function lockLeasedRuns(db: Db, ids: readonly string[], leaseUntil: Date): Promise<RunRow[]> {
  return db
    .selectFrom('journey_runs')
    .selectAll()
    .where(sql<boolean>`id = ANY (${[...ids]}::text[])`)
    .where('status', '=', 'ACTIVE')
    .where('lease_until', '=', leaseUntil)
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function lockLeasedRun(db: Db, id: string, leaseUntil: Date): Promise<RunRow | undefined> {
  return (await lockLeasedRuns(db, [id], leaseUntil))[0];
}

export interface RunWrite extends RunChange {
  teamId: number;
  id: string;
  /** The emails this turn queued: the run is not taken again while one of them is unsent. */
  awaitingEmailIds: string[];
}

/** Writes the turns of many runs in one statement (the runner's batch). */
export async function saveRuns(db: Db, writes: readonly RunWrite[], now: Date): Promise<void> {
  if (writes.length === 0) return;
  const rows = writes.map((w) => ({
    team_id: w.teamId,
    id: w.id,
    status: w.status,
    idx: w.currentStepIndex,
    next: w.nextRunAt.toISOString(),
    reason: w.exitReason,
    added: w.added,
    awaiting: w.awaitingEmailIds,
  }));
  await sql`UPDATE journey_runs r SET
      status = c.status,
      current_step_index = c.idx,
      next_run_at = c.next,
      exit_reason = c.reason,
      history = r.history || c.added,
      awaiting_email_ids = c.awaiting,
      attempts = CASE WHEN c.status = 'ACTIVE' THEN 0 ELSE r.attempts END,
      last_error = NULL,
      updated_at = ${now}::timestamptz
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS c(team_id integer, id text, status text, idx integer, next timestamptz, reason text, added jsonb, awaiting text[])
    WHERE r.team_id = c.team_id AND r.id = c.id`.execute(db);
}

export interface RunChange {
  status: RunStatus;
  currentStepIndex: number;
  nextRunAt: Date;
  exitReason: ExitReason | null;
  added: HistoryEntry[];
}

export async function saveRun(db: Db, teamId: number, id: string, change: RunChange, now: Date): Promise<void> {
  await sql`UPDATE journey_runs SET
      status = ${change.status}::text,
      current_step_index = ${change.currentStepIndex}::integer,
      next_run_at = ${change.nextRunAt}::timestamptz,
      exit_reason = ${change.exitReason}::text,
      history = history || ${JSON.stringify(change.added)}::jsonb,
      attempts = CASE WHEN ${change.status}::text = 'ACTIVE' THEN 0 ELSE attempts END,
      last_error = NULL,
      updated_at = ${now}::timestamptz
    WHERE team_id = ${teamId}::integer AND id = ${id}::text`.execute(db);
}

/**
 * ACTIVE runs exit with `reason`: the team's runs of one journey (archive) or of some contacts
 * (unsubscribed, deleted). Locked in id order first, as the runner locks its batch, then changed;
 * answers the runs that exited.
 */
export async function exitActiveRuns(
  db: Db,
  teamId: number,
  of: { journeyId: string } | { contactIds: readonly string[] },
  reason: ExitReason,
  now: Date,
): Promise<RunRow[]> {
  let query = db
    .selectFrom('journey_runs')
    .select('id')
    .where('team_id', '=', teamId)
    .where('status', '=', 'ACTIVE')
    .orderBy('id')
    .forUpdate();
  if ('journeyId' in of) query = query.where('journey_id', '=', of.journeyId);
  else if (of.contactIds.length === 0) return [];
  else query = query.where(sql<boolean>`contact_id = ANY (${[...of.contactIds]}::text[])`);
  const ids = (await query.execute()).map((row) => row.id);
  if (ids.length === 0) return [];
  const entry: HistoryEntry = { at: now.toISOString(), type: 'EXITED', note: reason };
  const { rows } = await sql<RunRow>`UPDATE journey_runs SET
      status = 'EXITED', exit_reason = ${reason}::text, history = history || ${JSON.stringify([entry])}::jsonb,
      lease_until = NULL, updated_at = ${now}::timestamptz
    WHERE team_id = ${teamId}::integer AND id = ANY (${ids}::text[]) AND status = 'ACTIVE'
    RETURNING *`.execute(db);
  return rows;
}

/** The runner gave up on these runs (attempts ran out): FAILED with PROCESSING_ERROR, if still held. */
export async function failRuns(db: Db, ids: string[], leaseUntil: Date, error: string, now: Date): Promise<RunRow[]> {
  const entry: HistoryEntry = { at: now.toISOString(), type: 'FAILED', note: error.slice(0, 500) };
  const { rows } = await sql<RunRow>`UPDATE journey_runs SET
      status = 'FAILED', exit_reason = 'PROCESSING_ERROR', history = history || ${JSON.stringify([entry])}::jsonb,
      lease_until = NULL, last_error = ${error.slice(0, 2000)}::text, updated_at = ${now}::timestamptz
    WHERE id = ANY (${ids}::text[]) AND status = 'ACTIVE' AND lease_until = ${leaseUntil}::timestamptz
    RETURNING *`.execute(db);
  return rows;
}

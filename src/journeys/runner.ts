// The journey-runs queue: an ACTIVE run of an ACTIVE journey whose next_run_at is due. A turn takes
// the run's steps from current_step_index (turn-plan.ts): EMAIL steps send through queueEmails, a
// WAIT sets next_run_at and ends the turn, the end of the steps completes the run (once the emails
// it queued are sent: the claim does not take a run while they wait, see RUN_READY in run-queries.ts). The runs' changes,
// their emails, the journeys' counters and the events commit together, and only for runs that still
// carry this claim's lease: a worker killed mid-step leaves nothing, and the next claim takes the
// step again, so each step's email is stored exactly once.
//
// A claimed batch is taken in ONE transaction (the emails of each team queued by one queueEmails
// call per 100): the benchmark's target asked for it (bench/RESULTS.md). When anything in it fails
// (a send refused for one run, the quota), it rolls back and each run takes its turn alone (its
// email still stored once: the run's lease and change commit with it): a refused send exits that
// run with SEND_FAILED, the quota (429) and other errors retry it with backoff, and after the
// attempts run out it is FAILED with PROCESSING_ERROR.
//
// Exits, checked before each EMAIL step: contact deleted (CONTACT_DELETED), not subscribed
// (UNSUBSCRIBED), no longer in the segment with exitWhenLeavesSegment (EXITED, exitReason null, the
// history says why), an email of an earlier step that failed or bounced (SEND_FAILED). Unsubscribes and deletions also end runs at once (exits.ts); the check here
// catches a run enrolled while its contact was leaving. A PAUSED journey's runs are not claimed (readyWhere); their time passes and
// they run when it is ACTIVE again.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { contactsOf, type ContactFacts } from '../contacts/index.ts';
import { failedEmailsOf, queueEmails } from '../emails/index.ts';
import { systemPrincipal } from '../platform/auth/system-principal.ts';
import { ApiError } from '../platform/errors.ts';
import { defineQueue, errorMessage, type BatchContext, type JobOutcome, type Queue } from '../queue/index.ts';
import { contactInSegment } from '../segments/index.ts';
import { JOURNEY_RUNS_QUEUE } from './enroll.ts';
import { recordRunEnded } from './events.ts';
import { keyShareJourneysOf, type JourneyRow } from './queries.ts';
import {
  bumpCounters,
  failRuns,
  lockLeasedRun,
  lockLeasedRuns,
  RUN_READY,
  saveRuns,
  type CounterChange,
  type RunRow,
  type RunWrite,
} from './run-queries.ts';
import type { HistoryEntry, Step } from './schemas.ts';
import { historyOf, planTurn, type Ending, type TurnPlan } from './turn-plan.ts';

export { JOURNEY_RUNS_QUEUE };

const MINUTE = 60_000;
/** queueEmails takes at most a batch of 100 inputs. */
const SEND_CHUNK = 100;

interface Turn {
  run: RunRow;
  contact: ContactFacts | undefined;
  plan: TurnPlan;
  emailIds: string[];
}

function variablesOf(contact: ContactFacts): Record<string, string> {
  return {
    ...contact.properties,
    email: contact.email,
    firstName: contact.first_name ?? '',
    lastName: contact.last_name ?? '',
  };
}

function emailInputs(turn: Turn) {
  return turn.plan.emails.map((step) => ({
    from: step.from,
    to: turn.contact!.email,
    templateId: step.templateId,
    ...(step.subject !== undefined && { subject: step.subject }),
    variables: variablesOf(turn.contact!),
  }));
}

const key = (teamId: number, id: string) => `${teamId}:${id}`;

/**
 * Locks what a turn changes, in the order every writer keeps (run-queries.ts): the runs' journeys
 * (KEY SHARE), then the runs that still carry this claim's lease (id order).
 */
async function lockTurns(tx: Transaction<Database>, rows: readonly RunRow[], leaseUntil: Date) {
  const journeys = await keyShareJourneysOf(
    tx,
    rows.map((r) => ({ teamId: r.team_id, id: r.journey_id })),
  );
  const runs = await lockLeasedRuns(
    tx,
    rows.map((r) => r.id),
    leaseUntil,
  );
  return { runs, journeys: new Map(journeys.map((j) => [key(j.team_id, j.id), j])) };
}

/** The emails a run's earlier EMAIL steps sent (from its history). */
function sentEmailIds(run: RunRow): string[] {
  return (run.history as HistoryEntry[]).flatMap((entry) =>
    entry.type === 'EMAIL' && entry.emailId !== undefined ? [entry.emailId] : [],
  );
}

/** Plans the turns of locked runs; runs of a journey that is not ACTIVE (now) are left as they are. */
async function planTurns(
  tx: Transaction<Database>,
  { runs, journeys }: Awaited<ReturnType<typeof lockTurns>>,
  now: Date,
): Promise<Turn[]> {
  const contacts = new Map(
    (
      await contactsOf(
        tx,
        runs.map((r) => ({ teamId: r.team_id, id: r.contact_id })),
      )
    ).map((c) => [key(c.team_id, c.id), c]),
  );
  const failed = await failedEmailsOf(
    tx,
    runs.flatMap((run) => sentEmailIds(run).map((id) => ({ teamId: run.team_id, id }))),
  );
  const turns: Turn[] = [];
  for (const run of runs) {
    const journey: JourneyRow | undefined = journeys.get(key(run.team_id, run.journey_id));
    if (!journey || journey.status !== 'ACTIVE') continue; // held until ACTIVE again
    const contact = contacts.get(key(run.team_id, run.contact_id));
    let leftSegment: string | null = null;
    if (contact && journey.exit_when_leaves_segment && journey.segment_id !== null) {
      if (!(await contactInSegment(tx, run.team_id, journey.segment_id, contact.id, now)))
        leftSegment = `left the segment ${journey.segment_id} (exitWhenLeavesSegment)`;
    }
    const failedId = sentEmailIds(run).find((id) => failed.has(id));
    const failedSend = failedId === undefined ? null : `email ${failedId} ${failed.get(failedId)!.toLowerCase()}`;
    const plan = planTurn(journey.steps as Step[], run.current_step_index, contact, leftSegment, now, failedSend);
    turns.push({ run, contact, plan, emailIds: [] });
  }
  return turns;
}

/** Writes the turns: runs, counters (one statement per journey), events of the runs that ended. */
async function writeTurns(tx: Transaction<Database>, turns: Turn[], now: Date): Promise<void> {
  const writes: RunWrite[] = [];
  const counters = new Map<string, { teamId: number; change: CounterChange }>();
  for (const { run, plan, emailIds } of turns) {
    writes.push({
      teamId: run.team_id,
      id: run.id,
      status: plan.ending?.status ?? 'ACTIVE',
      currentStepIndex: plan.index,
      nextRunAt: plan.wait?.until ?? run.next_run_at,
      exitReason: plan.ending?.exitReason ?? null,
      added: historyOf(plan, emailIds, now),
      awaitingEmailIds: emailIds,
    });
    const entry = counters.get(run.journey_id) ?? { teamId: run.team_id, change: { sent: {} } };
    const change = entry.change;
    for (const step of plan.emails) change.sent![step.id] = (change.sent![step.id] ?? 0) + 1;
    if (plan.ending) {
      change.active = (change.active ?? 0) - 1;
      const field =
        plan.ending.status === 'COMPLETED' ? 'completed' : plan.ending.status === 'EXITED' ? 'exited' : 'failed';
      change[field] = (change[field] ?? 0) + 1;
    }
    counters.set(run.journey_id, entry);
  }
  await saveRuns(tx, writes, now);
  // In id order, so two batches touching the same journeys lock their rows in the same order.
  for (const [journeyId, { teamId, change }] of [...counters].sort(([a], [b]) => (a < b ? -1 : 1)))
    await bumpCounters(tx, teamId, journeyId, change);
  for (const { run, plan } of turns) {
    if (plan.ending && plan.ending.status !== 'FAILED')
      await recordRunEnded(
        tx,
        { ...run, current_step_index: plan.index },
        plan.ending.status,
        plan.ending.exitReason,
        now,
      );
  }
}

/** The whole batch in one transaction; throws (and stores nothing) when any part fails. */
async function batchTurn(rows: RunRow[], ctx: BatchContext, now: Date): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const turns = await planTurns(tx, await lockTurns(tx, rows, ctx.leaseUntil), now);
    const byTeam = new Map<number, { turn: Turn; input: ReturnType<typeof emailInputs>[number] }[]>();
    for (const turn of turns) {
      const list = byTeam.get(turn.run.team_id) ?? [];
      for (const input of turn.plan.emails.length > 0 ? emailInputs(turn) : []) list.push({ turn, input });
      byTeam.set(turn.run.team_id, list);
    }
    for (const [teamId, sends] of [...byTeam].sort(([a], [b]) => a - b)) {
      for (let start = 0; start < sends.length; start += SEND_CHUNK) {
        const chunk = sends.slice(start, start + SEND_CHUNK);
        const ids = await queueEmails(
          tx,
          systemPrincipal(teamId, 'journey'),
          chunk.map((send) => send.input),
          // The bulk delivery lane: a journey's mail never stands before transactional mail.
          { now, batch: true, bulk: true },
        );
        chunk.forEach((send, i) => send.turn.emailIds.push(ids[i]!));
      }
    }
    await writeTurns(tx, turns, now);
  });
}

/** One run alone: its emails with its change, in one transaction; a refused send exits it with SEND_FAILED. */
async function singleTurn(row: RunRow, ctx: BatchContext, now: Date): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (tx) => {
      const locked = await lockTurns(tx, [row], ctx.leaseUntil);
      const run = locked.runs[0];
      if (!run) return;
      const [turn] = await planTurns(tx, locked, now);
      if (!turn) return;
      const inputs = turn.plan.emails.length > 0 ? emailInputs(turn) : [];
      for (const input of inputs) {
        const [id] = await queueEmails(tx, systemPrincipal(run.team_id, 'journey'), [input], {
          now,
          bulk: true,
        });
        turn.emailIds.push(id!);
      }
      await writeTurns(tx, [turn], now);
    });
  } catch (error) {
    // Over the send quota (429) clears with time: tried again. Any other refusal will not.
    if (!(error instanceof ApiError) || error.status === 429) throw error;
    await ctx.db.transaction().execute(async (tx) => {
      const run = await lockLeasedRun(tx, row.id, ctx.leaseUntil);
      if (!run) return;
      const ending: Ending = { status: 'EXITED', exitReason: 'SEND_FAILED', note: `send refused: ${error.message}` };
      const plan: TurnPlan = { emails: [], index: run.current_step_index, wait: null, ending };
      await writeTurns(tx, [{ run, contact: undefined, plan, emailIds: [] }], now);
    });
  }
}

async function takeTurns(rows: RunRow[], ctx: BatchContext): Promise<JobOutcome[]> {
  const now = ctx.clock.now();
  try {
    await batchTurn(rows, ctx, now);
    return rows.map((row) => ({ id: row.id, outcome: 'done' }));
  } catch (error) {
    if (rows.length === 1 && !(error instanceof ApiError))
      return [{ id: rows[0]!.id, outcome: 'retry', error: errorMessage(error) }];
    ctx.logger.debug({ err: error, runs: rows.length }, 'journey batch rolled back; each run takes its turn alone');
  }
  const outcomes: JobOutcome[] = [];
  for (const row of rows) {
    try {
      await singleTurn(row, ctx, now);
      outcomes.push({ id: row.id, outcome: 'done' });
    } catch (error) {
      outcomes.push({ id: row.id, outcome: 'retry', error: errorMessage(error) });
    }
  }
  return outcomes;
}

export function journeyRunsQueue(): Queue {
  return defineQueue<RunRow>({
    name: JOURNEY_RUNS_QUEUE,
    table: 'journey_runs',
    idType: 'text',
    dueColumn: 'next_run_at',
    leaseColumn: 'lease_until',
    attemptsColumn: 'attempts',
    readyWhere: RUN_READY,
    batchSize: SEND_CHUNK,
    concurrency: 2,
    leaseMs: 5 * MINUTE,
    maxAttempts: 5,
    backoff: { baseMs: 10_000, maxMs: 30 * MINUTE },
    handleBatch: takeTurns,
    // Each turn wrote its run under the lease; the default statement clears the lease.
    onDone: sql`last_error = NULL`,
    onRetry: sql`last_error = job_error`,
    onFailed: async (items, ctx) => {
      const now = ctx.clock.now();
      for (const item of items) {
        ctx.logger.warn({ runId: item.row.id, error: item.error }, 'journey run failed');
        await ctx.db.transaction().execute(async (tx) => {
          const [failed] = await failRuns(tx, [item.row.id], ctx.leaseUntil, item.error ?? 'failed', now);
          if (failed) await bumpCounters(tx, failed.team_id, failed.journey_id, { active: -1, failed: 1 });
        });
      }
    },
  });
}

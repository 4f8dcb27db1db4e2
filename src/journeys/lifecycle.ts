// Making and changing journeys (operator.md: POST/PATCH/DELETE /v1/journeys, POST .../status).
// Transitions (also in README.md):
//
//   from \ to        ACTIVE   PAUSED   ARCHIVED
//   DRAFT            yes      400      yes
//   PENDING_REVIEW   yes      400      yes
//   ACTIVE           (same)   yes      yes
//   PAUSED           yes      (same)   yes
//   ARCHIVED         400      400      400     (final)
//
// Asking for the status a journey already has changes nothing and answers it.
import type { Kysely } from 'kysely';
import type { Database, JourneyStatus } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { badRequest, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { notifyQueue } from '../queue/index.ts';
import { checkReferences } from './checks.ts';
import { JOURNEY_RUNS_QUEUE } from './enroll.ts';
import { exitRunsOfJourney } from './exits.ts';
import {
  deleteJourney,
  insertJourney,
  lockJourney,
  updateJourney,
  type JourneyRow,
  type JourneyValues,
} from './queries.ts';
import { insertStats } from './run-queries.ts';
import type { CreateJourneyInput, Step, UpdateJourneyInput } from './schemas.ts';

interface LifecycleDeps {
  db: Kysely<Database>;
  clock: Clock;
}

export async function createJourney(
  deps: LifecycleDeps,
  teamId: number,
  input: CreateJourneyInput,
): Promise<JourneyRow> {
  const values: JourneyValues = {
    name: input.name,
    triggerType: input.triggerType,
    contactBookId: input.contactBookId,
    segmentId: input.segmentId ?? null,
    exitWhenLeavesSegment: input.exitWhenLeavesSegment,
    steps: input.steps,
  };
  await checkReferences(deps.db, teamId, values);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (tx) => {
    const row = await insertJourney(tx, teamId, newId('jrn_', now), values, now);
    await insertStats(tx, teamId, row.id);
    return row;
  });
}

function valuesOf(row: JourneyRow): JourneyValues {
  return {
    name: row.name,
    triggerType: row.trigger_type,
    contactBookId: row.contact_book_id,
    segmentId: row.segment_id,
    exitWhenLeavesSegment: row.exit_when_leaves_segment,
    steps: row.steps as Step[],
  };
}

export async function patchJourney(
  deps: LifecycleDeps,
  teamId: number,
  id: string,
  input: UpdateJourneyInput,
): Promise<JourneyRow> {
  return deps.db.transaction().execute(async (tx) => {
    const current = await lockJourney(tx, teamId, id);
    if (!current) throw notFound('Journey');
    if (current.status === 'ARCHIVED') throw badRequest('the journey is ARCHIVED and can no longer change');
    if (input.steps !== undefined && current.status !== 'DRAFT' && current.status !== 'PAUSED')
      throw badRequest(`steps: change only while the journey is DRAFT or PAUSED (it is ${current.status})`);
    const merged: JourneyValues = { ...valuesOf(current) };
    if (input.name !== undefined) merged.name = input.name;
    if (input.triggerType !== undefined) merged.triggerType = input.triggerType;
    if (input.contactBookId !== undefined) {
      merged.contactBookId = input.contactBookId;
      // A segment belongs to one book: a new book without a new segment drops the old one.
      if (input.segmentId === undefined && input.contactBookId !== current.contact_book_id) merged.segmentId = null;
    }
    if (input.segmentId !== undefined) merged.segmentId = input.segmentId;
    if (input.exitWhenLeavesSegment !== undefined) merged.exitWhenLeavesSegment = input.exitWhenLeavesSegment;
    else if (merged.segmentId === null) merged.exitWhenLeavesSegment = false;
    if (input.steps !== undefined) merged.steps = input.steps;
    await checkReferences(tx, teamId, merged);
    const row = await updateJourney(tx, teamId, id, merged, deps.clock.now());
    if (!row) throw notFound('Journey');
    return row;
  });
}

const ALLOWED: Record<JourneyStatus, readonly JourneyStatus[]> = {
  DRAFT: ['ACTIVE', 'ARCHIVED'],
  PENDING_REVIEW: ['ACTIVE', 'ARCHIVED'],
  ACTIVE: ['PAUSED', 'ARCHIVED'],
  PAUSED: ['ACTIVE', 'ARCHIVED'],
  ARCHIVED: [],
};

export async function changeStatus(
  deps: LifecycleDeps,
  teamId: number,
  id: string,
  status: 'ACTIVE' | 'PAUSED' | 'ARCHIVED',
): Promise<JourneyRow> {
  return deps.db.transaction().execute(async (tx) => {
    const current = await lockJourney(tx, teamId, id);
    if (!current) throw notFound('Journey');
    if (current.status === 'ARCHIVED') throw badRequest('status: an ARCHIVED journey cannot change status again');
    if (current.status === status) return current;
    if (!ALLOWED[current.status].includes(status))
      throw badRequest(`status: a ${current.status} journey cannot become ${status}`);
    const now = deps.clock.now();
    // Activation runs on what the journey names now: a book, segment or template may be gone.
    if (status === 'ACTIVE') await checkReferences(tx, teamId, valuesOf(current));
    // The journey row first, then its runs (id order), then its counters: the order every writer
    // keeps (run-queries.ts), so an archive during a runner's batch waits for it, never deadlocks.
    if (status === 'ARCHIVED') await exitRunsOfJourney(tx, teamId, id, now);
    const row = await updateJourney(tx, teamId, id, { status }, now);
    if (!row) throw notFound('Journey');
    // Runs held while PAUSED whose time has come are due at once.
    if (status === 'ACTIVE') await notifyQueue(tx, JOURNEY_RUNS_QUEUE);
    return row;
  });
}

export async function removeJourney(deps: LifecycleDeps, teamId: number, id: string): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    const current = await lockJourney(tx, teamId, id);
    if (!current) throw notFound('Journey');
    if (current.status !== 'DRAFT' && current.status !== 'ARCHIVED')
      throw badRequest(
        `only a DRAFT or ARCHIVED journey can be deleted (this one is ${current.status}); archive it first`,
      );
    await deleteJourney(tx, teamId, id);
  });
}

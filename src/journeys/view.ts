// The contract's Journey and Journey run objects.
import type { z } from 'zod';
import type { JourneyRow } from './queries.ts';
import type { RunRow, StatsRow } from './run-queries.ts';
import type { HistoryEntry, Journey, JourneyRun, Step } from './schemas.ts';

export function journeyView(row: JourneyRow, stats: StatsRow | undefined): z.infer<typeof Journey> {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    triggerType: row.trigger_type,
    contactBookId: row.contact_book_id,
    segmentId: row.segment_id,
    exitWhenLeavesSegment: row.exit_when_leaves_segment,
    steps: row.steps as Step[],
    stats: {
      enrolled: stats?.enrolled ?? 0,
      active: stats?.active ?? 0,
      completed: stats?.completed ?? 0,
      exited: stats?.exited ?? 0,
      failed: stats?.failed ?? 0,
      sentByStep: stats?.sent_by_step ?? {},
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function runView(row: RunRow): z.infer<typeof JourneyRun> {
  return {
    id: row.id,
    journeyId: row.journey_id,
    contactId: row.contact_id,
    status: row.status,
    currentStepIndex: row.current_step_index,
    nextRunAt: row.next_run_at.toISOString(),
    exitReason: row.exit_reason,
    history: row.history as HistoryEntry[],
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

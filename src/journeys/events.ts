// journey.run.completed and journey.run.exited, recorded in the transaction that ends the run.
import type { Transaction } from 'kysely';
import type { Database, ExitReason } from '../db/schema.ts';
import { recordEvent } from '../webhooks/index.ts';

interface EndedRun {
  id: string;
  team_id: number;
  journey_id: string;
  contact_id: string;
  current_step_index: number;
}

export async function recordRunEnded(
  tx: Transaction<Database>,
  run: EndedRun,
  status: 'COMPLETED' | 'EXITED',
  exitReason: ExitReason | null,
  at: Date,
): Promise<void> {
  await recordEvent(tx, {
    teamId: run.team_id,
    type: status === 'COMPLETED' ? 'journey.run.completed' : 'journey.run.exited',
    domainId: null,
    data: {
      runId: run.id,
      journeyId: run.journey_id,
      contactId: run.contact_id,
      status,
      exitReason,
      currentStepIndex: run.current_step_index,
    },
    at,
  });
}

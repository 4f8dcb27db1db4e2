// What one turn of a run does, worked out without touching the database: from its current step,
// the EMAIL steps to send until a WAIT (which sets next_run_at and ends the turn) or the end of the
// steps (COMPLETED), or an exit checked before each EMAIL step. Membership in the segment is asked
// for before (exitWhenLeavesSegment), and so is whether an email the run sent earlier failed or
// bounced (SEND_FAILED); none of them changes within one transaction.
//
// An EMAIL step is done when its email is sent, not when it is queued: a turn that queued emails
// and reached the end leaves the run ACTIVE past its last step, and the queue takes it again only
// once those emails have left the queue (runner.ts readyWhere); that turn completes it, or exits it
// with SEND_FAILED when one of them failed or bounced.
import type { ExitReason, RunStatus } from '../db/schema.ts';
import type { ContactFacts } from '../contacts/index.ts';
import type { EmailStep, HistoryEntry, Step } from './schemas.ts';

export interface Ending {
  status: Exclude<RunStatus, 'ACTIVE'>;
  exitReason: ExitReason | null;
  note?: string;
}

export interface TurnPlan {
  /** The EMAIL steps to send, in order; each adds a history entry once its email id is known. */
  emails: EmailStep[];
  /** The run's step index after the turn. */
  index: number;
  /** Set when the turn ends on a WAIT. */
  wait: { stepId: string; until: Date } | null;
  /** Set when the run ends in this turn. */
  ending: Ending | null;
}

export function planTurn(
  steps: readonly Step[],
  startIndex: number,
  contact: ContactFacts | undefined,
  leftSegment: string | null,
  now: Date,
  failedSend: string | null = null,
): TurnPlan {
  const emails: EmailStep[] = [];
  const end = (index: number, ending: Ending): TurnPlan => ({ emails, index, wait: null, ending });
  if (!contact) return end(startIndex, { status: 'EXITED', exitReason: 'CONTACT_DELETED' });
  for (let index = startIndex; ; index++) {
    const step = steps[index];
    if (step === undefined) {
      // The contract's run statuses have no "sending": ACTIVE until the emails are out (see above).
      if (emails.length > 0) return { emails, index, wait: null, ending: null };
      if (failedSend !== null) return end(index, { status: 'EXITED', exitReason: 'SEND_FAILED', note: failedSend });
      return end(index, { status: 'COMPLETED', exitReason: null });
    }
    if (step.type === 'WAIT') {
      const until = new Date(now.getTime() + step.seconds * 1000);
      return { emails, index: index + 1, wait: { stepId: step.id, until }, ending: null };
    }
    if (!contact.subscribed || contact.confirmed_at === null)
      return end(index, { status: 'EXITED', exitReason: 'UNSUBSCRIBED' });
    // The contract names no exit reason for leaving the segment: null, and the history says why.
    if (leftSegment !== null) return end(index, { status: 'EXITED', exitReason: null, note: leftSegment });
    if (failedSend !== null) return end(index, { status: 'EXITED', exitReason: 'SEND_FAILED', note: failedSend });
    emails.push(step);
  }
}

/** The history entries of a planned turn, once its emails have ids. */
export function historyOf(plan: TurnPlan, emailIds: readonly string[], now: Date): HistoryEntry[] {
  const at = now.toISOString();
  const entries: HistoryEntry[] = plan.emails.map((step, i) => ({
    at,
    type: 'EMAIL',
    stepId: step.id,
    emailId: emailIds[i]!,
  }));
  if (plan.wait) entries.push({ at, type: 'WAIT', stepId: plan.wait.stepId, until: plan.wait.until.toISOString() });
  if (plan.ending) {
    const entry: HistoryEntry = { at, type: plan.ending.status };
    if (plan.ending.note !== undefined || plan.ending.exitReason !== null)
      entry.note = plan.ending.note ?? plan.ending.exitReason!;
    entries.push(entry);
  }
  return entries;
}

// Which status an email shows (`latestStatus`) when events arrive out of order. Every event is kept
// in emailEvents; the status moves only where this table allows. The rules:
// - Before sending (SCHEDULED, QUEUED) anything may follow.
// - Progress only goes forward: SENT < DELIVERY_DELAYED < DELIVERED < OPENED < CLICKED. A relay's
//   late "delayed" notice may follow SENT; a late DELIVERED never replaces OPENED or CLICKED.
// - A problem after sending wins over progress: BOUNCED (a receiver's later bounce report) and
//   COMPLAINED replace SENT, DELIVERY_DELAYED, DELIVERED, OPENED and CLICKED; nothing but a
//   complaint replaces BOUNCED, so a late DELIVERED never hides a BOUNCED.
// - COMPLAINED, REJECTED, RENDERING_FAILURE, FAILED, CANCELLED and SUPPRESSED are final.
import { EMAIL_STATUSES, type EmailStatus } from '../db/schema-email.ts';

const PROGRESS: readonly EmailStatus[] = ['SENT', 'DELIVERY_DELAYED', 'DELIVERED', 'OPENED', 'CLICKED'];
const after = (status: EmailStatus) => PROGRESS.slice(PROGRESS.indexOf(status) + 1);
const ANY: readonly EmailStatus[] = EMAIL_STATUSES;
const PROBLEMS: readonly EmailStatus[] = ['BOUNCED', 'COMPLAINED'];

/** For each current status: the statuses an event may move the email to. */
export const STATUS_MAY_BECOME: Readonly<Record<EmailStatus, readonly EmailStatus[]>> = {
  SCHEDULED: ANY,
  QUEUED: ANY,
  SENT: [...after('SENT'), ...PROBLEMS],
  DELIVERY_DELAYED: [...after('DELIVERY_DELAYED'), ...PROBLEMS],
  DELIVERED: [...after('DELIVERED'), ...PROBLEMS],
  OPENED: [...after('OPENED'), ...PROBLEMS],
  CLICKED: PROBLEMS,
  BOUNCED: ['COMPLAINED'],
  COMPLAINED: [],
  REJECTED: [],
  RENDERING_FAILURE: [],
  FAILED: [],
  CANCELLED: [],
  SUPPRESSED: [],
};

export function mayBecome(current: EmailStatus, next: EmailStatus): boolean {
  return current === next || STATUS_MAY_BECOME[current].includes(next);
}

/** The statuses an event of status `next` may replace: for a `WHERE status IN (...)` guard. */
export function replaceableBy(next: EmailStatus): EmailStatus[] {
  return ANY.filter((current) => current !== next && STATUS_MAY_BECOME[current].includes(next));
}

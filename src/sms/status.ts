// Which status may replace which (contract: SMS status). Reports arrive duplicated and out of order:
// a status only moves forward, `rejected` only from `queued`, and the final ones never change.
import type { SmsStatus } from '../db/schema.ts';

const RANK: Record<SmsStatus, number> = { queued: 0, sent: 1, delivered: 2, failed: 2, rejected: 2 };

export function smsMayBecome(current: SmsStatus, next: SmsStatus): boolean {
  if (RANK[current] === 2) return false;
  if (next === 'rejected') return current === 'queued';
  return RANK[next] > RANK[current];
}

// The back-off rule of a destination, and a ledger that keeps it in memory for one process (the
// database's ledger, src/destinations/, applies the same rule for a whole deployment).
import type { DestinationBackoff, DestinationLedger, DestinationTrouble } from './types.ts';

const PAUSE_BASE_MS = 30_000;
const PAUSE_MAX_MS = 30 * 60_000;

/** The pause after `failures` pauses in a row: 30 s doubling to 30 minutes. */
export function destinationPauseMs(failures: number): number {
  return Math.min(PAUSE_MAX_MS, PAUSE_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/** The back-off after a trouble, from the one before (null: none). */
export function backoffAfter(
  previous: DestinationBackoff | null,
  trouble: DestinationTrouble,
  now: Date,
): DestinationBackoff {
  const failures = (previous?.failures ?? 0) + (trouble.pause ? 1 : 0);
  const connections = Math.max(1, Math.min(previous?.connections ?? trouble.connections, trouble.connections));
  const pausedUntil = trouble.pause
    ? new Date(now.getTime() + destinationPauseMs(failures))
    : (previous?.pausedUntil ?? now);
  return { pausedUntil, connections, failures, reason: trouble.reason };
}

/** The back-off after a message got through: one connection more, none at `limit`. */
export function backoffAfterSuccess(previous: DestinationBackoff, limit: number): DestinationBackoff | null {
  const connections = previous.connections + 1;
  return connections >= limit ? null : { ...previous, connections, failures: 0 };
}

export function memoryDestinationLedger(now: () => Date = () => new Date()): DestinationLedger {
  const slots = new Map<string, Set<number>>();
  const backoffs = new Map<string, DestinationBackoff>();
  return {
    async takeSlot(destination, limit) {
      const backoff = backoffs.get(destination) ?? null;
      // As the database's: no slot while the destination is paused.
      if (backoff !== null && backoff.pausedUntil > now()) return { slot: null, backoff };
      const held = slots.get(destination) ?? new Set<number>();
      slots.set(destination, held);
      const cap = Math.min(limit, backoff?.connections ?? limit);
      for (let slot = 0; slot < cap; slot += 1) {
        if (!held.has(slot)) {
          held.add(slot);
          return { slot, backoff };
        }
      }
      return { slot: null, backoff };
    },
    async releaseSlot(destination, slot) {
      slots.get(destination)?.delete(slot);
    },
    async recordTrouble(destination, trouble) {
      const backoff = backoffAfter(backoffs.get(destination) ?? null, trouble, now());
      backoffs.set(destination, backoff);
      return backoff;
    },
    async recordSuccess(destination, limit) {
      const previous = backoffs.get(destination);
      if (previous === undefined) return null;
      const next = backoffAfterSuccess(previous, limit);
      if (next === null) backoffs.delete(destination);
      else backoffs.set(destination, next);
      return next;
    },
    async close() {},
  };
}

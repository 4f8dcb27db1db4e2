// The deployment's destination ledger (the `direct` transport's DestinationLedger) in PostgreSQL: a
// process's connection slots are leased and renewed while its sessions live, so a killed worker's
// slots come free within a lease; the back-off follows the transport's one rule (backoffAfter).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { backoffAfter, backoffAfterSuccess, type DestinationLedger } from '../adapters/mail-transport/index.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import {
  backoffOf,
  lockDestinationBackoff,
  releaseDestinationSlot,
  releaseHolderSlots,
  renewDestinationSlots,
  saveDestinationBackoff,
  takeDestinationSlot,
} from './queries.ts';

/** A killed process's slots are free again after this; a live one renews every third of it. */
export const SLOT_LEASE_MS = 60_000;

export interface LedgerLogger {
  warn(obj: object, msg: string): void;
}

export function databaseDestinationLedger(
  db: Kysely<Database>,
  clock: Clock,
  logger: LedgerLogger,
  renewEveryMs = SLOT_LEASE_MS / 3,
): DestinationLedger {
  const holder = randomUUID();
  // Only the slots of open sessions are renewed: one whose release failed lapses with its lease.
  const held: { destination: string; slot: number }[] = [];
  const leaseFrom = (now: Date) => new Date(now.getTime() + SLOT_LEASE_MS);
  const renewal = setInterval(() => {
    if (held.length === 0) return;
    renewDestinationSlots(db, holder, held, leaseFrom(clock.now())).catch((error: unknown) =>
      logger.warn({ err: error }, 'destination slots could not be renewed'),
    );
  }, renewEveryMs);
  renewal.unref();

  return {
    async takeSlot(destination, limit) {
      const now = clock.now();
      const taken = await takeDestinationSlot(db, destination, limit, holder, now, leaseFrom(now));
      if (taken.slot !== null) held.push({ destination, slot: taken.slot });
      return { slot: taken.slot, backoff: taken.backoff === null ? null : backoffOf(taken.backoff) };
    },
    async releaseSlot(destination, slot) {
      const index = held.findIndex((h) => h.destination === destination && h.slot === slot);
      if (index !== -1) held.splice(index, 1);
      await releaseDestinationSlot(db, destination, slot, holder);
    },
    recordTrouble(destination, trouble) {
      return db.transaction().execute(async (tx) => {
        const now = clock.now();
        const previous = await lockDestinationBackoff(tx, destination);
        const backoff = backoffAfter(previous === null ? null : backoffOf(previous), trouble, now);
        await saveDestinationBackoff(tx, destination, backoff, now);
        return backoff;
      });
    },
    recordSuccess(destination, limit) {
      return db.transaction().execute(async (tx) => {
        const previous = await lockDestinationBackoff(tx, destination);
        if (previous === null) return null;
        const backoff = backoffAfterSuccess(backoffOf(previous), limit);
        await saveDestinationBackoff(tx, destination, backoff, clock.now());
        return backoff;
      });
    },
    async close() {
      clearInterval(renewal);
      await releaseHolderSlots(db, holder).catch(() => {});
    },
  };
}

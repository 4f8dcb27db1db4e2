// The retention chore (HERALD_INBOUND_RETENTION_DAYS, default 30; contract: Limits, "raw inbound
// originals kept 30 days"): originals older than that, and their attachments' bytes, are removed;
// the parsed message stays readable and /raw then answers 422. Messages are marked removed in
// batches of 500 under SKIP LOCKED (from then on /raw answers 422 and the links 404). Then every hour
// directory of packs older than the cutoff's hour goes whole: each of its messages arrived before
// the cutoff (blob-keys.ts), so all were marked; packs of batches that rolled back, and of deleted
// teams, go with it. The bytes of the cutoff's own hour go at the next hourly run.
import type { Kysely } from 'kysely';
import type { BlobStore } from '../adapters/blob-store/index.ts';
import type { Database } from '../db/schema.ts';
import { HOUR_DIRECTORY, hourOf, INBOUND_PREFIX } from './blob-keys.ts';
import { removeOldOriginals } from './message-queries.ts';

const DAY = 24 * 60 * 60 * 1000;
const BATCH = 500;

export interface RetentionDeps {
  db: Kysely<Database>;
  blobs: BlobStore;
}

/** Answers how many messages lost their original and how many hours of packs were removed. */
export async function removeExpiredOriginals(
  deps: RetentionDeps,
  now: Date,
  retentionDays: number,
): Promise<{ messages: number; hours: number }> {
  const before = new Date(now.getTime() - retentionDays * DAY);
  let messages = 0;
  for (;;) {
    const marked = await removeOldOriginals(deps.db, before, now, BATCH);
    messages += marked;
    if (marked < BATCH) break;
  }
  const cutoffHour = hourOf(before);
  const expired = (await deps.blobs.list(INBOUND_PREFIX)).filter((h) => HOUR_DIRECTORY.test(h) && h < cutoffHour);
  for (const hour of expired) await deps.blobs.remove(`${INBOUND_PREFIX}${hour}/`);
  return { messages, hours: expired.length };
}

// Contract (Segments): a segment used by a scheduled or running campaign or an active journey can be
// renamed but not redefined (400), and not deleted (400).
import type { Db } from '../db/handle.ts';

/** Campaigns and journeys do not exist yet, so no segment is in use; their areas will answer here. */
export function segmentInUse(_db: Db, _teamId: number, _segmentId: string): Promise<boolean> {
  return Promise.resolve(false);
}

// Contract (Segments): a segment used by a scheduled or running campaign or an active journey can be
// renamed but not redefined (400), and not deleted (400).
import type { Db } from '../db/handle.ts';
import { segmentInUse as askUsers } from '../platform/contact-hooks.ts';

/** Asks the areas that use segments (journeys register through platform/contact-hooks.ts). */
export async function segmentInUse(db: Db, teamId: number, segmentId: string): Promise<boolean> {
  return (await askUsers(db, teamId, segmentId)) !== null;
}

// Contract (Segments): a segment used by a scheduled or running campaign or an active journey can be
// renamed but not redefined (400), and not deleted (400). The areas that use segments import
// segments, so they answer through hooks they register once at start (app.ts calls
// registerSegmentHooks). Without a registration no segment is in use.
import type { Db } from '../db/handle.ts';

export interface SegmentHooks {
  /** Why the segment may not be redefined or deleted now (e.g. "an active journey uses it"), or null. */
  segmentInUse(db: Db, teamId: number, segmentId: string): Promise<string | null>;
}

const registered = new Set<SegmentHooks>();

/** Idempotent: the same hooks registered twice run once. */
export function registerSegmentHooks(hooks: SegmentHooks): void {
  registered.add(hooks);
}

/** Whether any registered area uses the segment now. */
export async function segmentInUse(db: Db, teamId: number, segmentId: string): Promise<boolean> {
  for (const hooks of registered) {
    if ((await hooks.segmentInUse(db, teamId, segmentId)) !== null) return true;
  }
  return false;
}

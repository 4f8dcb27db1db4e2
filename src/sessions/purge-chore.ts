// The sessions' chore: rows that can no longer be used are removed, once an hour by one worker.
// Sessions idle for 14 days are already refused (sessions.ts); sign-ins are kept a day past their
// 15 minutes (an operator reading why a sign-in failed can still find it), then removed.
import { defineChore, type Chore } from '../queue/index.ts';
import { purgeIdleSessions } from './queries.ts';
import { SESSION_IDLE_MS } from './sessions.ts';
import { purgeOldSignIns } from './sign-in-queries.ts';

const HOUR = 60 * 60_000;
const SIGN_INS_KEPT_MS = 24 * HOUR;

export function sessionPurgeChore(): Chore {
  return defineChore({
    name: 'purge-sessions',
    everyMs: HOUR,
    run: async ({ db, clock, logger }) => {
      const now = clock.now().getTime();
      const sessions = await purgeIdleSessions(db, new Date(now - SESSION_IDLE_MS));
      const signIns = await purgeOldSignIns(db, new Date(now - SIGN_INS_KEPT_MS));
      if (sessions > 0 || signIns > 0) logger.info({ sessions, signIns }, 'idle sessions and old sign-ins removed');
    },
  });
}

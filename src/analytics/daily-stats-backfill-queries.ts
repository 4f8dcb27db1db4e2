// The daily counters (email_daily_stats) counted from events already stored, by the rules the trigger
// of 0010_analytics.sql counts new ones with (what is counted: README.md here). The trigger keeps the
// counters from then on; this builds them for events written without it (bench/analytics.ts inserts
// its events with triggers off), and the analytics tests prove both agree.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';

/**
 * Adds every team's stored events to email_daily_stats (shard 0): run it on empty counters, or the
 * events are counted twice. Window ranks instead of the trigger's per-event probes: one sort of the
 * counted events rather than one index probe each.
 */
export async function backfillDailyStats(db: Db): Promise<void> {
  await sql`
    INSERT INTO email_daily_stats (team_id, day, domain_id, sent, delivered, opened, clicked, bounced, hard_bounced, complained)
    SELECT f.team_id, (f.created_at AT TIME ZONE 'UTC')::date, coalesce(m.domain_id, 0),
           count(*) FILTER (WHERE f.status IN ('SENT', 'DELIVERED') AND f.handoff_rank = 1),
           count(*) FILTER (WHERE f.status = 'DELIVERED' AND f.status_rank = 1),
           count(*) FILTER (WHERE f.status = 'OPENED' AND f.status_rank = 1),
           count(*) FILTER (WHERE f.status = 'CLICKED' AND f.status_rank = 1),
           count(*) FILTER (WHERE f.status = 'BOUNCED' AND f.status_rank = 1),
           count(*) FILTER (WHERE f.status = 'BOUNCED' AND f.status_rank = 1),
           count(*) FILTER (WHERE f.status = 'COMPLAINED' AND f.status_rank = 1)
    FROM (
      SELECT e.team_id, e.email_id, e.status, e.created_at,
             row_number() OVER (PARTITION BY e.email_id, e.status ORDER BY e.id) AS status_rank,
             row_number() OVER (PARTITION BY e.email_id, e.status IN ('SENT', 'DELIVERED') ORDER BY e.id) AS handoff_rank
      FROM email_events e
      WHERE e.status IN ('SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED')
    ) f
    JOIN emails m ON m.id = f.email_id AND m.team_id = f.team_id
    WHERE f.status_rank = 1
    GROUP BY f.team_id, (f.created_at AT TIME ZONE 'UTC')::date, coalesce(m.domain_id, 0)`.execute(db);
}

// Every SQL statement of the analytics area: sums of the per-day counters that the trigger of
// 0010_analytics.sql keeps (email_daily_stats), team id first. A team has at most one row per day,
// domain and shard, so these read a few hundred rows whatever the team's volume.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';

export interface DayCounts {
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
}

interface ReputationCounts {
  sent: number;
  delivered: number;
  hardBounced: number;
  complained: number;
}

/** Only one domain's counters, or (null) every domain's, including mail of no domain (domain_id 0). */
const domainFilter = (domainId: number | null) => (domainId === null ? sql`` : sql`AND domain_id = ${domainId}::int`);

/** The days from `first` to `last` (inclusive, 'YYYY-MM-DD') that have counters, summed over domains and shards. */
export async function dailyCounts(
  db: Db,
  teamId: number,
  first: string,
  last: string,
  domainId: number | null,
): Promise<Map<string, DayCounts>> {
  const result = await sql<DayCounts & { day: string }>`
    SELECT to_char(day, 'YYYY-MM-DD') AS day,
           sum(sent)::int AS sent, sum(delivered)::int AS delivered, sum(opened)::int AS opened,
           sum(clicked)::int AS clicked, sum(bounced)::int AS bounced, sum(complained)::int AS complained
    FROM email_daily_stats
    WHERE team_id = ${teamId}::int AND day BETWEEN ${first}::date AND ${last}::date ${domainFilter(domainId)}
    GROUP BY day`.execute(db);
  return new Map(result.rows.map(({ day, ...counts }) => [day, counts]));
}

/** All-time totals for reputation (int8 sums: a large team's lifetime passes 2^31). */
export async function reputationCounts(db: Db, teamId: number, domainId: number | null): Promise<ReputationCounts> {
  const result = await sql<{
    sent: bigint | null;
    delivered: bigint | null;
    hard_bounced: bigint | null;
    complained: bigint | null;
  }>`
    SELECT sum(sent)::int8 AS sent, sum(delivered)::int8 AS delivered,
           sum(hard_bounced)::int8 AS hard_bounced, sum(complained)::int8 AS complained
    FROM email_daily_stats
    WHERE team_id = ${teamId}::int ${domainFilter(domainId)}`.execute(db);
  const row = result.rows[0];
  return {
    sent: Number(row?.sent ?? 0),
    delivered: Number(row?.delivered ?? 0),
    hardBounced: Number(row?.hard_bounced ?? 0),
    complained: Number(row?.complained ?? 0),
  };
}

export interface CampaignCounts {
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  hardBounced: number;
  complained: number;
}

/** Each campaign's email counts (0019_campaign_counts.sql), summed over shards; campaigns with none are left out. */
export async function campaignCounts(
  db: Db,
  teamId: number,
  campaignIds: readonly string[],
): Promise<Map<string, CampaignCounts>> {
  if (campaignIds.length === 0) return new Map();
  const { rows } = await sql<CampaignCounts & { campaign_id: string }>`
    SELECT campaign_id, sum(sent)::int AS sent, sum(delivered)::int AS delivered, sum(opened)::int AS opened,
           sum(clicked)::int AS clicked, sum(bounced)::int AS bounced, sum(hard_bounced)::int AS "hardBounced",
           sum(complained)::int AS complained
    FROM email_campaign_counts WHERE team_id = ${teamId}::int AND campaign_id = ANY(${[...campaignIds]}::text[])
    GROUP BY campaign_id`.execute(db);
  return new Map(rows.map(({ campaign_id, ...counts }) => [campaign_id, counts]));
}

/** A deleted campaign's counts go with it. */
export async function deleteCampaignCounts(db: Db, teamId: number, campaignId: string): Promise<void> {
  await sql`DELETE FROM email_campaign_counts WHERE team_id = ${teamId}::int AND campaign_id = ${campaignId}`.execute(
    db,
  );
}

// Every SQL statement of the campaigns area, team id first. A domain-limited key's reads name its
// domain (`domainId`), so it finds only campaigns sent from it; another's answer as missing ones.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { CampaignsTable, CampaignStatsTable, CampaignStatus } from '../db/schema-campaigns.ts';

export type CampaignRow = Selectable<CampaignsTable>;
export type CampaignStats = Selectable<CampaignStatsTable>;
export type NewCampaign = Insertable<CampaignsTable>;
export type CampaignChange = Updateable<CampaignsTable>;

/** Which campaigns a key may see: all of the team's, or those of its one domain. */
export interface CampaignScope {
  teamId: number;
  domainId: number | null;
}

export async function insertCampaign(db: Db, row: NewCampaign): Promise<CampaignRow> {
  const stored = await db.insertInto('campaigns').values(row).returningAll().executeTakeFirstOrThrow();
  await db.insertInto('campaign_stats').values({ campaign_id: row.id, team_id: row.team_id }).execute();
  return stored;
}

/** The campaign in scope; `lock` takes its row for the caller's transaction. */
export async function getCampaign(
  db: Db,
  scope: CampaignScope,
  id: string,
  lock = false,
): Promise<CampaignRow | undefined> {
  let query = db.selectFrom('campaigns').selectAll().where('team_id', '=', scope.teamId).where('id', '=', id);
  if (scope.domainId !== null) query = query.where('domain_id', '=', scope.domainId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function statsOf(db: Db, teamId: number, ids: readonly string[]): Promise<Map<string, CampaignStats>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('campaign_stats')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('campaign_id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.campaign_id, row]));
}

interface ListFilter {
  status: CampaignStatus | undefined;
  search: string | undefined;
}

/** One page, newest first, and how many campaigns match in all. */
export async function listCampaigns(
  db: Db,
  scope: CampaignScope,
  filter: ListFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: CampaignRow[]; total: number }> {
  let query = db.selectFrom('campaigns').where('team_id', '=', scope.teamId);
  if (scope.domainId !== null) query = query.where('domain_id', '=', scope.domainId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.search !== undefined && filter.search !== '') {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('subject', 'ilike', pattern)]));
  }
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export async function updateCampaign(db: Db, teamId: number, id: string, change: CampaignChange): Promise<CampaignRow> {
  return db
    .updateTable('campaigns')
    .set(change)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteCampaign(db: Db, teamId: number, id: string): Promise<void> {
  await db.deleteFrom('campaigns').where('team_id', '=', teamId).where('id', '=', id).execute();
}

/** The name of a SCHEDULED or RUNNING campaign of the book, if any (contract: the book stays). */
export async function liveCampaignOfBook(db: Db, teamId: number, bookId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('campaigns')
    .select('name')
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', bookId)
    .where('status', 'in', ['SCHEDULED', 'RUNNING'])
    .executeTakeFirst();
  return row?.name;
}

/** The name of a SCHEDULED or RUNNING campaign limited to the segment, if any. */
export async function liveCampaignOfSegment(db: Db, teamId: number, segmentId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('campaigns')
    .select('name')
    .where('team_id', '=', teamId)
    .where('segment_id', '=', segmentId)
    .where('status', 'in', ['SCHEDULED', 'RUNNING'])
    .executeTakeFirst();
  return row?.name;
}

/** One more unsubscribe from the campaign's emails. */
export async function addUnsubscribed(db: Db, teamId: number, campaignId: string): Promise<void> {
  await db
    .updateTable('campaign_stats')
    .set((eb) => ({ unsubscribed: eb('unsubscribed', '+', 1) }))
    .where('team_id', '=', teamId)
    .where('campaign_id', '=', campaignId)
    .execute();
}

// A campaign's counters as the API shows them, each kept as it changes (nothing is counted at read
// time): total and unsubscribed are the campaign's own (campaign_stats); the counts of its emails'
// events come from analytics, which keeps them as the events arrive.
import { campaignCounts } from '../analytics/index.ts';
import type { Db } from '../db/handle.ts';
import { statsOf } from './queries.ts';

export interface Counters {
  total: number;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  unsubscribed: number;
  bounced: number;
  hardBounced: number;
  complained: number;
}

const NONE: Counters = {
  total: 0,
  sent: 0,
  delivered: 0,
  opened: 0,
  clicked: 0,
  unsubscribed: 0,
  bounced: 0,
  hardBounced: 0,
  complained: 0,
};

export async function countersOf(db: Db, teamId: number, ids: readonly string[]): Promise<Map<string, Counters>> {
  const [own, emails] = await Promise.all([statsOf(db, teamId, ids), campaignCounts(db, teamId, ids)]);
  return new Map(
    ids.map((id) => {
      const stats = own.get(id);
      return [id, { ...NONE, ...emails.get(id), total: stats?.total ?? 0, unsubscribed: stats?.unsubscribed ?? 0 }];
    }),
  );
}

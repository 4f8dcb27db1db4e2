// The list of a team's one-time codes (GET /v1/verify, a Herald extension), newest first. Ordered by
// (created_at, id) DESC on verifications_team_created (0013_verify.sql: team_id, created_at DESC).
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { VerificationChannel, VerificationStatus } from '../db/schema-verify.ts';
import type { RiskLevel } from '../platform/risk.ts';
import { getSmsDelivery } from '../sms/index.ts';
import type { VerificationWithDelivery } from './queries.ts';

export interface VerificationListFilter {
  status?: VerificationStatus;
  channel?: VerificationChannel;
  riskLevel?: RiskLevel;
  /** The last row of the previous page. */
  after?: { createdAt: Date; id: string };
  limit: number;
}

export function listVerificationsQuery(db: Db, teamId: number, q: VerificationListFilter) {
  let query = db.selectFrom('verifications').selectAll().where('team_id', '=', teamId);
  if (q.status !== undefined) query = query.where('status', '=', q.status);
  if (q.channel !== undefined) query = query.where('channel', '=', q.channel);
  if (q.riskLevel !== undefined) query = query.where('risk_level', '=', q.riskLevel);
  if (q.after !== undefined)
    query = query.where(sql<boolean>`(created_at, id) < (${q.after.createdAt}, ${q.after.id})`);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit);
}

/**
 * A page of codes with their SMS delivery. The SMS area answers one message at a time
 * (getSmsDelivery, by primary key): at most one lookup per SMS code of the page.
 */
export async function listVerifications(
  db: Db,
  teamId: number,
  q: VerificationListFilter,
): Promise<VerificationWithDelivery[]> {
  const rows = await listVerificationsQuery(db, teamId, q).execute();
  return Promise.all(
    rows.map(async (row) => {
      const sms = row.sms_id === null ? undefined : await getSmsDelivery(db, teamId, row.sms_id);
      return {
        ...row,
        sms_status: sms?.status ?? null,
        sms_provider_message_id: sms?.provider_message_id ?? null,
        sms_reason_message: sms?.reason_message ?? null,
      };
    }),
  );
}

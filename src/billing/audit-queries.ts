// The audit log of billing reads (0016_billing.sql), team id first.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { BillingAuditLogRow } from '../db/schema-billing.ts';
import { newId } from '../platform/ids.ts';

export interface AuditEntry {
  keyId: string | null;
  keyKind: string;
  memberId: number | null;
  method: string;
  path: string;
  query: string;
  status: number;
  errorCode: string | null;
  at: Date;
}

/** One read; the key's name is copied as it is now, so a later rename does not rewrite history. */
export async function insertAuditEntry(db: Db, teamId: number, entry: AuditEntry): Promise<void> {
  await sql`INSERT INTO billing_audit_log
      (id, team_id, api_key_id, key_name, key_kind, member_id, method, path, query, status, error_code, created_at)
    VALUES (${newId('aud_', entry.at)}, ${teamId}, ${entry.keyId},
      (SELECT name FROM api_keys WHERE id = ${entry.keyId} AND team_id = ${teamId}),
      ${entry.keyKind}, ${entry.memberId}, ${entry.method}, ${entry.path}, ${entry.query}, ${entry.status},
      ${entry.errorCode}, ${entry.at})`.execute(db);
}

export async function auditPage(
  db: Db,
  teamId: number,
  after: { createdAt: Date; id: string } | undefined,
  limit: number,
): Promise<BillingAuditLogRow[]> {
  let query = db.selectFrom('billing_audit_log').selectAll().where('team_id', '=', teamId);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

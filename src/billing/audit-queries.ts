// The audit log (0016_billing.sql, 0021): billing reads, and the changes keys make to the team's
// API keys and suppression list (Herald extension), team id first.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { BillingAuditLogRow } from '../db/schema-billing.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
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
  /** A change (AuditedChange['action']); absent on a read. */
  action?: string;
  target?: string;
}

/** One read; the key's name is copied as it is now, so a later rename does not rewrite history. */
export async function insertAuditEntry(db: Db, teamId: number, entry: AuditEntry): Promise<void> {
  await sql`INSERT INTO billing_audit_log
      (id, team_id, api_key_id, key_name, key_kind, member_id, method, path, query, status, error_code, created_at,
       action, target)
    VALUES (${newId('aud_', entry.at)}, ${teamId}, ${entry.keyId},
      (SELECT name FROM api_keys WHERE id = ${entry.keyId} AND team_id = ${teamId}),
      ${entry.keyKind}, ${entry.memberId}, ${entry.method}, ${entry.path}, ${entry.query}, ${entry.status},
      ${entry.errorCode}, ${entry.at}, ${entry.action ?? null}, ${entry.target ?? null})`.execute(db);
}

export const AUDITED_ACTIONS = [
  'api_key.created',
  'api_key.revoked',
  'suppression.added',
  'suppression.removed',
  'member.invited',
  'member.role_changed',
  'member.removed',
] as const;

/** A change a key made to its team's keys or suppression list, as the audit log records it. */
export interface AuditedChange {
  action: (typeof AUDITED_ACTIONS)[number];
  /** The key id or the address. */
  target: string;
  method: string;
  /** Without the API prefix, as a read's: /v1/api-keys/key_… */
  path: string;
  status: number;
  at: Date;
}

/** Call in the transaction that makes the change, so the entry commits with it or not at all. */
export async function auditChange(tx: Db, principal: Principal, change: AuditedChange): Promise<void> {
  await insertAuditEntry(tx, principal.teamId, {
    keyId: principal.keyId,
    keyKind: principal.kind,
    memberId: principal.memberId,
    method: change.method,
    path: change.path,
    query: '',
    status: change.status,
    errorCode: null,
    at: change.at,
    action: change.action,
    target: change.target,
  });
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

// Every statement of the Webhooks API over webhooks and webhook_calls, team id first.
import { sql, type Selectable, type Transaction } from 'kysely';
import type { Database, TeamPlan, WebhookCallsTable, WebhookStatus, WebhooksTable } from '../db/schema.ts';
import { effectivePlanSql } from '../platform/effective-plan.ts';
import type { CursorPosition } from '../platform/pagination.ts';
import type { Db } from '../db/handle.ts';

export type WebhookRow = Selectable<WebhooksTable>;
export type CallRow = Selectable<WebhookCallsTable>;
export interface Last24hCounts {
  ok: number;
  retried: number;
  failed: number;
}

export function getWebhook(db: Db, teamId: number, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
}

/** The webhook locked for a change (rotation, status, update, delete), so changes do not interleave. */
export function lockWebhook(tx: Transaction<Database>, teamId: number, id: string): Promise<WebhookRow | undefined> {
  return tx
    .selectFrom('webhooks')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** Newest first, each with its last 24 hours of calls (contract: last24h in the list response). */
export async function listWebhooks(db: Db, teamId: number, since: Date): Promise<(WebhookRow & Last24hCounts)[]> {
  const result = await sql<WebhookRow & Last24hCounts>`
    SELECT w.*, COALESCE(c.ok, 0)::int AS ok, COALESCE(c.retried, 0)::int AS retried, COALESCE(c.failed, 0)::int AS failed
    FROM webhooks w
    LEFT JOIN LATERAL (
      SELECT count(*) FILTER (WHERE status = 'DELIVERED') AS ok,
             sum(greatest(attempt - 1, 0)) AS retried,
             count(*) FILTER (WHERE status IN ('FAILED', 'DISCARDED')) AS failed
      FROM webhook_calls WHERE webhook_id = w.id AND created_at >= ${since}
    ) c ON true
    WHERE w.team_id = ${teamId}
    ORDER BY w.created_at DESC, w.id DESC`.execute(db);
  return result.rows;
}

/**
 * Locks the team row and counts its webhooks, so two concurrent creations cannot both pass the
 * count of the plan the team is held to today (its effective plan).
 */
export async function lockTeamAndCountWebhooks(
  tx: Transaction<Database>,
  teamId: number,
): Promise<{ plan: TeamPlan; count: number } | null> {
  const team = await tx
    .selectFrom('teams')
    .select(effectivePlanSql('teams').as('plan'))
    .where('id', '=', teamId)
    .forUpdate()
    .executeTakeFirst();
  if (!team) return null;
  const { count } = await tx
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return { plan: team.plan, count: Number(count) };
}

export function insertWebhook(tx: Transaction<Database>, row: WebhookRow): Promise<WebhookRow> {
  return tx.insertInto('webhooks').values(row).returningAll().executeTakeFirstOrThrow();
}

export interface WebhookChanges {
  url?: string;
  description?: string | null;
  event_types?: string[];
  domain_ids?: number[];
  status?: WebhookStatus;
  consecutive_failures?: number;
  failing_since?: Date | null;
  secret_sealed?: string;
  secret_hint?: string;
}

export function updateWebhook(
  tx: Transaction<Database>,
  teamId: number,
  id: string,
  changes: WebhookChanges,
  now: Date,
): Promise<WebhookRow> {
  return tx
    .updateTable('webhooks')
    .set({ ...changes, updated_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes a webhook with its calls (webhook_calls keeps no foreign key: 0028_partitions_without_outside_keys.sql). */
export async function deleteWebhook(tx: Transaction<Database>, teamId: number, id: string): Promise<boolean> {
  await tx.deleteFrom('webhook_calls').where('team_id', '=', teamId).where('webhook_id', '=', id).execute();
  const result = await tx.deleteFrom('webhooks').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

interface CallFilter {
  webhookId?: string;
  status?: CallRow['status'];
  /** created_at (ISO) and id of the last call of the previous page. */
  after?: CursorPosition;
}

/** Newest first; limit + 1 rows so the caller knows whether another page exists. */
export function listCalls(db: Db, teamId: number, filter: CallFilter, limit: number): Promise<CallRow[]> {
  let query = db.selectFrom('webhook_calls').selectAll().where('team_id', '=', teamId);
  if (filter.webhookId !== undefined) query = query.where('webhook_id', '=', filter.webhookId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.after !== undefined) {
    const [createdAt, id] = filter.after as [string, string];
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', new Date(createdAt)),
        eb.and([eb('created_at', '=', new Date(createdAt)), eb('id', '<', id)]),
      ]),
    );
  }
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

export function getCall(db: Db, teamId: number, id: string): Promise<CallRow | undefined> {
  return db
    .selectFrom('webhook_calls')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * A failed or dropped call back to PENDING with a fresh set of attempts (contract: Webhook call
 * status). Returns null when the call is not FAILED or DISCARDED (then it is delivered or in flight).
 */
export async function requeueCall(db: Db, teamId: number, id: string, now: Date): Promise<CallRow | null> {
  const row = await db
    .updateTable('webhook_calls')
    .set({ status: 'PENDING', attempt: 0, next_attempt_at: now, lease_until: null, last_error: null, updated_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('status', 'in', ['FAILED', 'DISCARDED'])
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

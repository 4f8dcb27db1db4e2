// The email list's statements (GET /v1/emails), team id first: the contract's page form with its
// exact count, and the keyset form the dashboard pages through millions of emails with (no OFFSET,
// no count: both read every row before the page). Both walk emails_team_created newest first.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Database, EmailStatus } from '../db/schema.ts';
import type { EmailRow } from './queries.ts';

export interface EmailListFilter {
  startDate: Date | null;
  endDate: Date | null;
  domainIds: number[] | null;
  campaignId: string | null;
  /** latestStatus values: DELIVERY_DELAYED is a QUEUED row waiting for its next attempt (views.ts). */
  statuses: EmailStatus[] | null;
  search: string | null;
}

/** summary: html and text are left out (read as null), so a page of the log carries no bodies. */
export type EmailListFields = 'full' | 'summary';

/** Where a keyset page starts: an email's created_at (microseconds, UTC ISO) and id, and which way. */
export interface EmailListPosition {
  direction: 'older' | 'newer';
  at: string;
  id: string;
}

export type EmailListRow = EmailRow & { position_at: string };

type Query = SelectQueryBuilder<Database, 'emails', object>;

/** A whole address: found through email_recipients' primary key instead of a scan of the log. */
const WHOLE_ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function filtered(db: Db, teamId: number, filter: EmailListFilter): Query {
  let query: Query = db.selectFrom('emails').where('team_id', '=', teamId);
  if (filter.startDate) query = query.where('created_at', '>=', filter.startDate);
  if (filter.endDate) query = query.where('created_at', '<=', filter.endDate);
  if (filter.domainIds) query = query.where('domain_id', 'in', filter.domainIds.length > 0 ? filter.domainIds : [-1]);
  if (filter.campaignId !== null) query = query.where('campaign_id', '=', filter.campaignId);
  if (filter.statuses) {
    const wanted = new Set(filter.statuses);
    const queued = wanted.has('QUEUED');
    const delayed = wanted.has('DELIVERY_DELAYED');
    const stored = [...wanted].filter((status) => status !== 'DELIVERY_DELAYED');
    if (delayed && !queued) stored.push('QUEUED');
    query = query.where('status', 'in', stored);
    // One of QUEUED and DELIVERY_DELAYED but not the other: the flag tells them apart.
    if (queued !== delayed)
      query = query.where((eb) => eb.or([eb('status', '<>', 'QUEUED'), eb('delivery_delayed', '=', delayed)]));
  }
  if (filter.search !== null) {
    const search = filter.search;
    if (WHOLE_ADDRESS.test(search)) {
      query = query.where('id', 'in', (eb) =>
        eb
          .selectFrom('email_recipients')
          .select('email_id')
          .where('team_id', '=', teamId)
          .where('address', '=', search.toLowerCase()),
      );
    } else {
      const pattern = `%${escapeLike(search)}%`;
      // The address fields as sent (JSON text): a display name matches too.
      query = query.where((eb) =>
        eb.or([
          eb('subject', 'ilike', pattern),
          eb(sql`"to"::text`, 'ilike', pattern),
          eb(sql`cc::text`, 'ilike', pattern),
          eb(sql`bcc::text`, 'ilike', pattern),
        ]),
      );
    }
  }
  return query;
}

/** Every column but the bodies and headers, which no list shows. */
const SUMMARY_COLUMNS = [
  'id',
  'team_id',
  'domain_id',
  'api_key_id',
  'from',
  'to',
  'cc',
  'bcc',
  'reply_to',
  'subject',
  'template_id',
  'campaign_id',
  'bulk',
  'simulated',
  'source',
  'in_reply_to_id',
  'type',
  'scheduled_at',
  'status',
  'run_at',
  'lease_until',
  'attempts',
  'last_error',
  'message_id',
  'delivery_delayed',
  'created_at',
  'updated_at',
] as const;

/** created_at to the microsecond, in a form that reads back the same whatever the session's DateStyle. */
const positionAt = sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

async function rowsOf(query: Query, fields: EmailListFields): Promise<EmailListRow[]> {
  if (fields === 'full') return query.selectAll().select(positionAt.as('position_at')).execute();
  const rows = await query.select(SUMMARY_COLUMNS).select(positionAt.as('position_at')).execute();
  return rows.map((row) => ({ ...row, html: null, text: null, headers: null }));
}

/** The contract's page: OFFSET paging and the exact count of every email the filters match. */
export async function listEmailsByPage(
  db: Db,
  teamId: number,
  filter: EmailListFilter,
  page: { page: number; limit: number; fields: EmailListFields },
): Promise<{ rows: EmailListRow[]; count: number }> {
  const base = filtered(db, teamId, filter);
  const rows = await rowsOf(
    base
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    page.fields,
  );
  const counted = await base.select(sql<string>`count(*)`.as('count')).executeTakeFirstOrThrow();
  return { rows, count: Number(counted.count) };
}

/**
 * A keyset page, newest first: `limit` emails older than the position (or the newest, without one),
 * or the `limit` just newer than it. `more`: another page lies beyond, in the direction read.
 */
export async function listEmailsByCursor(
  db: Db,
  teamId: number,
  filter: EmailListFilter,
  page: { position: EmailListPosition | null; limit: number; fields: EmailListFields },
): Promise<{ rows: EmailListRow[]; more: boolean }> {
  const { position, limit } = page;
  let query = filtered(db, teamId, filter);
  const newer = position?.direction === 'newer';
  if (position) {
    const key = sql`(${position.at}::timestamptz, ${position.id}::text)`;
    query = query.where(sql<boolean>`(created_at, id) ${sql.raw(newer ? '>' : '<')} ${key}`);
  }
  const order = newer ? 'asc' : 'desc';
  const rows = await rowsOf(
    query
      .orderBy('created_at', order)
      .orderBy('id', order)
      .limit(limit + 1),
    page.fields,
  );
  const more = rows.length > limit;
  const kept = rows.slice(0, limit);
  return { rows: newer ? kept.reverse() : kept, more };
}

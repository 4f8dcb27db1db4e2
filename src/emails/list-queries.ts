// The email list's statements (GET /v1/emails), team id first: the contract's page form with its
// exact count, and the keyset form the dashboard pages through millions of emails with (no OFFSET,
// no count: both read every row before the page). Both walk emails_team_created newest first, or
// emails_team_status_created for a status (0026_email_list_status.sql).
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
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

/** An email's place in the list: its created_at (microseconds, UTC ISO) and id. */
export interface EmailListPlace {
  at: string;
  id: string;
}

/** Where a keyset page starts: `<` and `<=` read older emails, `>` and `>=` newer ones. */
export interface EmailListPosition extends EmailListPlace {
  op: '<' | '<=' | '>' | '>=';
}

/**
 * A text search reads at most this many emails a request, newest first from the position (one
 * matching nothing would otherwise read a team's whole log, seconds for millions): when it stops
 * short of a page, the page says where, and the cursor reads on from there.
 */
export const SEARCH_WINDOW = 20_000;

export type EmailListRow = EmailRow & { position_at: string };

type Query = SelectQueryBuilder<Database, 'emails', object>;
type Emails = ExpressionBuilder<Database, 'emails'>;

/** A whole address: found through email_recipients' primary key instead of a scan of the log. */
const WHOLE_ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function filtered(db: Db, teamId: number, filter: EmailListFilter, options = { textSearchApart: false }): Query {
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
  const search = filter.search;
  if (search !== null && WHOLE_ADDRESS.test(search)) {
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('email_recipients')
        .select('email_id')
        .where('team_id', '=', teamId)
        .where('address', '=', search.toLowerCase()),
    );
  } else if (search !== null && !options.textSearchApart) {
    query = query.where((eb) => textMatch(eb, search));
  }
  return query;
}

/** A search that is not a whole address: part of the subject or of an address field as sent. */
const textSearchOf = (filter: EmailListFilter) =>
  filter.search !== null && !WHOLE_ADDRESS.test(filter.search) ? filter.search : null;

function textMatch(eb: Emails, search: string) {
  const pattern = `%${escapeLike(search)}%`;
  // The address fields as sent (JSON text): a display name matches too.
  return eb.or([
    eb('subject', 'ilike', pattern),
    eb(sql`"to"::text`, 'ilike', pattern),
    eb(sql`cc::text`, 'ilike', pattern),
    eb(sql`bcc::text`, 'ilike', pattern),
  ]);
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
  'body_removed_at',
  'created_at',
  'updated_at',
] as const;

/** created_at to the microsecond, in a form that reads back the same whatever the session's DateStyle. */
const positionAt = sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

async function rowsOf(query: Query, fields: EmailListFields): Promise<EmailListRow[]> {
  if (fields === 'full') return query.selectAll().select(positionAt.as('position_at')).execute();
  const rows = await query.select(SUMMARY_COLUMNS).select(positionAt.as('position_at')).execute();
  return rows.map(withoutBodies);
}

const withoutBodies = <Row extends object>(row: Row) => ({ ...row, html: null, text: null, headers: null });

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

/** A keyset page in reading order, and where reading on in that direction resumes. */
export interface KeysetPage {
  rows: EmailListRow[];
  /** The last email read: the page's last, or where a text search stopped; null at the end of the list. */
  onward: EmailListPlace | null;
  /** A text search stopped at SEARCH_WINDOW emails read before the page was full: the last one's createdAt. */
  searchStoppedAt: Date | null;
}

const placeOf = (row: EmailListRow): EmailListPlace => ({ at: row.position_at, id: row.id });

/**
 * `limit` emails from the position in its direction (the newest, without one), in reading order:
 * newest first reading older, oldest first reading newer.
 */
export async function listEmailsByCursor(
  db: Db,
  teamId: number,
  filter: EmailListFilter,
  page: { position: EmailListPosition | null; limit: number; fields: EmailListFields; window?: number },
): Promise<KeysetPage> {
  const { position, limit, fields, window: windowSize = SEARCH_WINDOW } = page;
  const order = position?.op.startsWith('>') ? 'asc' : 'desc';
  const text = textSearchOf(filter);
  let query = filtered(db, teamId, filter, { textSearchApart: true });
  if (position)
    query = query.where(
      sql<boolean>`(created_at, id) ${sql.raw(position.op)} (${position.at}::timestamptz, ${position.id}::text)`,
    );
  query = query.orderBy('created_at', order).orderBy('id', order);
  if (text === null) {
    const rows = await rowsOf(query.limit(limit + 1), fields);
    const kept = rows.slice(0, limit);
    return { rows: kept, onward: rows.length > limit ? placeOf(kept[kept.length - 1]!) : null, searchStoppedAt: null };
  }
  // The window: the next SEARCH_WINDOW emails, each marked hit or not and numbered; what comes back
  // is the hits (one more than a page tells there are more) and the window's last email.
  const columns = fields === 'full' ? query.selectAll() : query.select(SUMMARY_COLUMNS);
  const window = columns
    .select(positionAt.as('position_at'))
    .select((eb) => textMatch(eb, text).as('hit'))
    .select(sql<string>`row_number() OVER (ORDER BY created_at ${sql.raw(order)}, id ${sql.raw(order)})`.as('n'))
    .limit(windowSize);
  const read = await db
    .selectFrom(window.as('w'))
    .selectAll()
    .where((eb) => eb.or([eb('w.hit', '=', true), eb('w.n', '=', String(windowSize))]))
    .orderBy('w.created_at', order)
    .orderBy('w.id', order)
    .limit(limit + 2)
    .execute();
  const rows = (fields === 'full' ? read : read.map(withoutBodies)) as (EmailListRow & { hit: boolean; n: string })[];
  const hits = rows.filter((row) => row.hit);
  if (hits.length > limit) {
    const kept = hits.slice(0, limit);
    return { rows: kept, onward: placeOf(kept[kept.length - 1]!), searchStoppedAt: null };
  }
  const last = rows.find((row) => Number(row.n) === windowSize);
  return { rows: hits, onward: last ? placeOf(last) : null, searchStoppedAt: last ? last.created_at : null };
}

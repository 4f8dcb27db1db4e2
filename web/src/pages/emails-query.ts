// The email log's state, all of it in the URL (design brief 5: back, reload and a pasted link restore
// the view): status (repeatable), domain, since (24h | 7d | 30d | custom with from/to days), campaign,
// q (search) and cursor. The list is read lean (fields=summary) and by cursor: 50 rows of millions.
import { api, getAtOnce, must } from '../api/client.ts';
import type { paths } from '../api/schema';

export const PAGE_SIZE = 50;
const HOUR = 3600_000;
export const SINCE = { '24h': 24 * HOUR, '7d': 7 * 24 * HOUR, '30d': 30 * 24 * HOUR } as const;
type Relative = keyof typeof SINCE;
export type Since = Relative | 'custom';

type ListQuery = NonNullable<paths['/api/v1/emails']['get']['parameters']['query']>;
export type EmailStatus = Extract<NonNullable<ListQuery['status']>, string>;
/** The contract's states in its order (the status filter's options). */
export const EMAIL_STATUSES: readonly EmailStatus[] = [
  'SCHEDULED',
  'QUEUED',
  'SENT',
  'DELIVERY_DELAYED',
  'BOUNCED',
  'REJECTED',
  'RENDERING_FAILURE',
  'DELIVERED',
  'OPENED',
  'CLICKED',
  'COMPLAINED',
  'FAILED',
  'CANCELLED',
  'SUPPRESSED',
];

export interface EmailFilters {
  statuses: EmailStatus[];
  domain?: number;
  since?: Since;
  /** Custom range, local days (YYYY-MM-DD), both ends included. */
  from?: string;
  to?: string;
  campaign?: string;
  q?: string;
  cursor?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (value: string | null) => (value && DAY.test(value) ? value : undefined);

export function readFilters(params: URLSearchParams): EmailFilters {
  const domain = Number(params.get('domain'));
  const since = params.get('since');
  const from = day(params.get('from'));
  const to = day(params.get('to'));
  const statuses = params.getAll('status').filter((s): s is EmailStatus => EMAIL_STATUSES.includes(s as EmailStatus));
  return {
    statuses: [...new Set(statuses)],
    domain: Number.isInteger(domain) && domain > 0 ? domain : undefined,
    since: since && (since in SINCE || since === 'custom') ? (since as Since) : from || to ? 'custom' : undefined,
    from,
    to,
    campaign: params.get('campaign') || undefined,
    q: params.get('q')?.trim() || undefined,
    cursor: params.get('cursor') || undefined,
  };
}

export const hasFilters = (f: EmailFilters) =>
  f.statuses.length > 0 || !!f.domain || !!f.since || !!f.campaign || !!f.q;

/** The window's bounds as the API takes them; a relative start rounded to the minute keeps the query key stable. */
export function windowOf(f: EmailFilters): { startDate?: string; endDate?: string } {
  if (f.since === 'custom') {
    return {
      startDate: f.from ? new Date(`${f.from}T00:00:00`).toISOString() : undefined,
      endDate: f.to ? new Date(`${f.to}T23:59:59.999`).toISOString() : undefined,
    };
  }
  if (!f.since) return {};
  const minute = Math.floor((Date.now() - SINCE[f.since]) / 60_000) * 60_000;
  return { startDate: new Date(minute).toISOString() };
}

type ListQueryParams = ReturnType<typeof listQueryOf>;
const readList = (query: ListQueryParams, signal?: AbortSignal) =>
  must(api.GET('/api/v1/emails', { params: { query }, signal }));

type ListAnswer = Awaited<ReturnType<typeof readList>>;

/**
 * The first page's request, started when this module is evaluated (boot-reads.ts: before React and
 * the rest of the entry) rather than when React mounts the page: answered by then, the first render
 * has its rows; else the query waits on it. Taken once, by the first query with its key; one that
 * failed (signed out) is dropped, so the page's query reads again. It takes index.html's read of
 * the same URL when there is one (inline-reads.ts).
 */
interface EarlyRead {
  key: string;
  answer: Promise<ListAnswer>;
  data?: ListAnswer;
}
let early: EarlyRead | null = null;
if (location.pathname.replace(/\/$/, '') === '/emails') {
  const query = listQueryOf(readFilters(new URLSearchParams(location.search)));
  const answer = must(getAtOnce<ListAnswer>('/api/v1/emails', query));
  const started: EarlyRead = { key: JSON.stringify(query), answer };
  started.answer.then(
    (data) => void (started.data = data),
    // Failed (signed out, say): the page's own query asks again, after sign-in if need be.
    () => {
      if (early === started) early = null;
    },
  );
  early = started;
}

/** The early request of this query, if it is one (once). */
function takeEarly(query: ListQueryParams) {
  const started = early?.key === JSON.stringify(query) ? early : null;
  if (started) early = null;
  return started;
}

function listQueryOf(f: EmailFilters) {
  const { startDate, endDate } = windowOf(f);
  return {
    paging: 'cursor' as const,
    fields: 'summary' as const,
    limit: PAGE_SIZE,
    cursor: f.cursor,
    status: f.statuses.length > 0 ? f.statuses : undefined,
    search: f.q,
    domainId: f.domain,
    campaignId: f.campaign,
    startDate,
    endDate,
  };
}

export function emailsQuery(f: EmailFilters) {
  const query = listQueryOf(f);
  const started = early?.data ? takeEarly(query) : null;
  return {
    queryKey: ['emails', 'list', query],
    queryFn: ({ signal }: { signal: AbortSignal }) => takeEarly(query)?.answer ?? readList(query, signal),
    initialData: started?.data,
  };
}

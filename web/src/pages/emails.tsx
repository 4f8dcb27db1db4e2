// The email log: Recipient, Status, Subject, Domain, Sent; 50 rows; every filter and the page in the
// URL (back, reload and a pasted link restore the view); Newer/Older, the next page prefetched.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, must } from '../api/client.ts';
import { useDomains } from '../lib/use-domains.ts';
import { Button, buttonClass } from '../ui/button.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { StatusBadge, Tag } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';

const PAGE_SIZE = 50;
const SINCE = { '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000, '30d': 30 * 24 * 3600_000 } as const;
type Since = keyof typeof SINCE;

interface Filters {
  page: number;
  domain?: number;
  since?: Since;
  campaign?: string;
}

function readFilters(params: URLSearchParams): Filters {
  const page = Number(params.get('page'));
  const domain = Number(params.get('domain'));
  const since = params.get('since');
  return {
    page: Number.isInteger(page) && page > 1 ? page : 1,
    domain: Number.isInteger(domain) && domain > 0 ? domain : undefined,
    since: since && since in SINCE ? (since as Since) : undefined,
    campaign: params.get('campaign') || undefined,
  };
}

/** The start of the `since` window, rounded down to the minute so the query key is stable. */
function startOf(since: Since | undefined): string | undefined {
  if (!since) return undefined;
  const minute = Math.floor((Date.now() - SINCE[since]) / 60_000) * 60_000;
  return new Date(minute).toISOString();
}

function emailsQuery(f: Filters) {
  return {
    queryKey: ['emails', 'list', f.page, f.domain ?? null, f.since ?? null, f.campaign ?? null],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      must(
        api.GET('/api/v1/emails', {
          params: {
            query: {
              page: f.page,
              limit: PAGE_SIZE,
              domainId: f.domain,
              startDate: startOf(f.since),
              campaignId: f.campaign,
            },
          },
          signal,
        }),
      ),
  };
}

/** The domain of a From address (`Name <a@b>` or `a@b`): the built-in domain's mail has no domainId. */
const fromDomain = (from: string) => /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? '—';

export const simulated = (address: string) => /@simulator\.herald\.test$/i.test(address);

function Recipient({ to }: { to: string | string[] }) {
  const list = Array.isArray(to) ? to : [to];
  if (list.length === 0) return <span className="text-fg-2">(cc/bcc only)</span>;
  return (
    <span className="flex min-w-0 items-center gap-1">
      <span className="truncate">{list[0]}</span>
      {list.length > 1 ? <span className="shrink-0 text-fg-2">+{list.length - 1}</span> : null}
      {list.some(simulated) ? <Tag>Simulated</Tag> : null}
    </span>
  );
}

export default function Emails() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const queryClient = useQueryClient();
  const domains = useDomains();
  const list = useQuery({ ...emailsQuery(filters), placeholderData: keepPreviousData });
  const rows = list.data?.data ?? [];
  const hasOlder = filters.page * PAGE_SIZE < (list.data?.count ?? 0);

  // Prefetch the next page when idle, so "Older" is instant (after a moment where there is no
  // requestIdleCallback, as in Safari).
  useEffect(() => {
    if (!hasOlder) return;
    const prefetch = () => void queryClient.prefetchQuery(emailsQuery({ ...filters, page: filters.page + 1 }));
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(prefetch, 300);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(prefetch);
    return () => cancelIdleCallback(handle);
  });

  const update = (changes: Record<string, string | null>, resetPage = true) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null || value === '') copy.delete(name);
        else copy.set(name, value);
      }
      if (resetPage) copy.delete('page');
      return copy;
    });

  const domainName = (id: number | null) =>
    id === null ? '—' : (domains.data?.find((d) => d.id === id)?.name ?? `#${id}`);
  const chips = [
    filters.domain ? { key: 'domain', label: `Domain: ${domainName(filters.domain)}` } : null,
    filters.since ? { key: 'since', label: `Since: last ${filters.since}` } : null,
    filters.campaign ? { key: 'campaign', label: `Campaign: ${filters.campaign}` } : null,
  ].filter((c) => c !== null);

  return (
    <>
      <title>Emails · Herald</title>
      <PageHeader title="Emails" />
      <div className="mb-3 flex flex-wrap items-center gap-2" role="search" aria-label="Filter emails">
        <label className="sr-only" htmlFor="emails-domain">
          Domain
        </label>
        <select
          id="emails-domain"
          className="h-8 rounded-md border border-control bg-bg px-2 text-[13px]"
          value={filters.domain ?? ''}
          onChange={(e) => update({ domain: e.target.value })}
        >
          <option value="">All domains</option>
          {domains.data?.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
        <label className="sr-only" htmlFor="emails-since">
          Date
        </label>
        <select
          id="emails-since"
          className="h-8 rounded-md border border-control bg-bg px-2 text-[13px]"
          value={filters.since ?? ''}
          onChange={(e) => update({ since: e.target.value })}
        >
          <option value="">Any time</option>
          <option value="24h">Last 24 hours</option>
          <option value="7d">Last 7 days</option>
          <option value="30d">Last 30 days</option>
        </select>
        {chips.map((chip) => (
          <span
            key={chip.key}
            className="inline-flex h-7 items-center gap-1 rounded-full border border-line pr-1 pl-3 text-[12px]"
          >
            {chip.label}
            <button
              type="button"
              aria-label={`Remove filter ${chip.label}`}
              className="flex size-5 items-center justify-center rounded-full hover:bg-muted"
              onClick={() => update({ [chip.key]: null })}
            >
              <X aria-hidden="true" size={12} />
            </button>
          </span>
        ))}
        {chips.length > 0 ? (
          <Button variant="ghost" onClick={() => setParams(new URLSearchParams())}>
            Clear
          </Button>
        ) : null}
      </div>

      {list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.isPending && rows.length === 0 && filters.page === 1 ? (
        <EmptyState
          title={chips.length > 0 ? 'No email matches these filters.' : 'No email sent yet.'}
          action={
            <Link to="/" className={buttonClass('primary')}>
              Send a test email from Overview
            </Link>
          }
        >
          Every email this team sends through the API or SMTP appears here with its events.
        </EmptyState>
      ) : (
        <Table label="Emails" className={list.isPlaceholderData ? 'opacity-70' : undefined}>
          <colgroup>
            <col className="w-[32%] md:w-[26%]" />
            <col className="w-[150px]" />
            <col />
            <col className="hidden w-[18%] md:table-column" />
            <col className="hidden w-[130px] sm:table-column" />
          </colgroup>
          <thead>
            <tr>
              <Th>Recipient</Th>
              <Th>Status</Th>
              <Th>Subject</Th>
              <Th className="hidden md:table-cell">Domain</Th>
              <Th className="hidden sm:table-cell">Sent</Th>
            </tr>
          </thead>
          <tbody>
            {list.isPending ? (
              <SkeletonRows rows={10} columns={5} />
            ) : (
              rows.map((email) => (
                <tr key={email.id} className="hover:bg-surface">
                  <Td>
                    <Link to={`/emails/${email.id}`} className="block truncate hover:underline">
                      <Recipient to={email.to} />
                    </Link>
                  </Td>
                  <Td>
                    <StatusBadge state={email.latestStatus} />
                  </Td>
                  <Td>{email.subject}</Td>
                  <Td className="hidden text-fg-2 md:table-cell">
                    {email.domainId === null ? fromDomain(email.from) : domainName(email.domainId)}
                  </Td>
                  <Td className="hidden text-fg-2 sm:table-cell">
                    <Time value={email.scheduledAt ?? email.createdAt} />
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}
      <nav aria-label="Pages" className="mt-3 flex justify-end gap-2">
        <Button
          disabled={filters.page <= 1}
          onClick={() => update({ page: filters.page - 1 > 1 ? String(filters.page - 1) : null }, false)}
        >
          Newer
        </Button>
        <Button disabled={!hasOlder} onClick={() => update({ page: String(filters.page + 1) }, false)}>
          Older
        </Button>
      </nav>
    </>
  );
}

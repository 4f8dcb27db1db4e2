// The email log: Recipient, Status, Subject, Domain, Sent; 50 rows read lean and by cursor (no
// OFFSET, no total: a log of millions pages as fast as its first page); every filter and the cursor
// in the URL; Newer/Older, the older page prefetched when idle so Older is instant.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiFailure } from '../api/client.ts';
import { useDomains } from '../lib/use-domains.ts';
import { Button, buttonClass } from '../ui/button.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { Time } from '../ui/time.tsx';
import { EmailFiltersBar, type FilterChanges } from './emails-filters.tsx';
import { emailsQuery, hasFilters, PAGE_SIZE, readFilters } from './emails-query.ts';
import { EmailsTable } from './emails-table.tsx';

/** Runs `work` when the browser is idle (after a moment where there is no requestIdleCallback, as in Safari). */
function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(work, 300);
    return () => clearTimeout(timer);
  }
  const handle = requestIdleCallback(work);
  return () => cancelIdleCallback(handle);
}

/** A text search reads a bounded number of emails a request (the API's searchStoppedAt): say where it stopped. */
function SearchStopped({ at }: { at: string }) {
  return (
    <>
      The search stopped at the emails of <Time value={at} mode="absolute" />: it reads 20,000 emails at a time, and
      Older reads on.
    </>
  );
}

export default function Emails() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const queryClient = useQueryClient();
  const domains = useDomains();
  const list = useQuery({ ...emailsQuery(filters), placeholderData: keepPreviousData });
  const rows = list.data?.data ?? [];
  const nextCursor = list.data?.nextCursor ?? null;
  const prevCursor = list.data?.prevCursor ?? null;
  const stoppedAt = list.data?.searchStoppedAt ?? null;

  useEffect(() => {
    if (!nextCursor) return;
    return whenIdle(() => void queryClient.prefetchQuery(emailsQuery({ ...filters, cursor: nextCursor })));
  });

  const change = useCallback(
    (changes: FilterChanges, options: { replace?: boolean } = {}) =>
      setParams(
        (current) => {
          const copy = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            copy.delete(name);
            for (const one of Array.isArray(value) ? value : [value]) if (one) copy.append(name, one);
          }
          // Another filter is another list: its cursor means nothing there.
          if (!('cursor' in changes)) copy.delete('cursor');
          return copy;
        },
        { replace: options.replace ?? false },
      ),
    [setParams],
  );
  const go = (cursor: string | null) => {
    change({ cursor });
    document.querySelector('h1')?.scrollIntoView({ block: 'nearest' });
  };

  const domainName = (id: number) => domains.data?.find((d) => d.id === id)?.name ?? `#${id}`;
  const filtered = hasFilters(filters);
  const badCursor = list.error instanceof ApiFailure && list.error.status === 400 && !!filters.cursor;

  return (
    <>
      <title>Emails · Herald</title>
      <PageHeader title="Emails" />
      <EmailFiltersBar filters={filters} onChange={change} onClear={() => setParams(new URLSearchParams())} />
      {list.isError ? (
        <div className="space-y-3">
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
          {badCursor ? (
            <Button onClick={() => go(null)} variant="primary">
              Show the newest emails
            </Button>
          ) : null}
        </div>
      ) : !list.isPending && rows.length === 0 && stoppedAt && nextCursor ? (
        <EmptyState
          title="No match among the emails searched so far."
          action={
            <Button variant="primary" onClick={() => go(nextCursor)}>
              Search older emails
            </Button>
          }
        >
          <SearchStopped at={stoppedAt} />
        </EmptyState>
      ) : !list.isPending && rows.length === 0 && filters.cursor ? (
        <EmptyState
          title="No emails on this page."
          action={
            <Button variant="primary" onClick={() => go(null)}>
              Show the newest emails
            </Button>
          }
        />
      ) : !list.isPending && rows.length === 0 ? (
        <EmptyState
          title={filtered ? 'No email matches these filters.' : 'No email sent yet.'}
          action={
            filtered ? (
              <Button onClick={() => setParams(new URLSearchParams())}>Clear filters</Button>
            ) : (
              <Link to="/" className={buttonClass('primary')}>
                Send a test email from Overview
              </Link>
            )
          }
        >
          {filtered
            ? 'Search looks at the subject and every recipient; a whole address finds the emails sent to it.'
            : 'Every email this team sends through the API or SMTP appears here with its events.'}
        </EmptyState>
      ) : (
        <>
          <EmailsTable
            rows={rows}
            loading={list.isPending}
            stale={list.isPlaceholderData}
            skeletonRows={PAGE_SIZE}
            domainName={domainName}
          />
          {stoppedAt ? (
            <p className="mt-2 text-[12px] text-fg-2">
              <SearchStopped at={stoppedAt} />
            </p>
          ) : null}
        </>
      )}
      <nav aria-label="Pages" className="mt-3 flex items-center justify-end gap-2">
        {list.isFetching && !list.isPending ? (
          <span role="status" className="mr-auto text-[12px] text-fg-2">
            Loading…
          </span>
        ) : null}
        <Button disabled={!prevCursor} onClick={() => go(prevCursor)}>
          Newer
        </Button>
        <Button disabled={!nextCursor} onClick={() => go(nextCursor)}>
          Older
        </Button>
      </nav>
    </>
  );
}

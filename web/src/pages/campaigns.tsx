// Campaigns: Name, Status, Scheduled, Progress (bar + sent/total), Delivered; the status filter, the
// search (250 ms debounce) and the page live in the URL; the next page prefetched when idle; "New
// campaign" makes a draft and opens it.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { useUrlSearch } from '../lib/use-url-search.ts';
import { Button } from '../ui/button.tsx';
import { curlFor } from '../ui/copy-curl.tsx';
import { inputClass } from '../ui/dialog.tsx';
import { formatPercent, ratio } from '../ui/format.ts';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { CAMPAIGN_STATUSES, CampaignStatusBadge, campaignStatusWord, type CampaignStatus } from './campaign-common.tsx';
import { CreateCampaign } from './campaign-create.tsx';
import { ProgressBar } from './campaign-stats.tsx';

interface Filters {
  page: number;
  status?: CampaignStatus;
  search?: string;
}

function readFilters(params: URLSearchParams): Filters {
  const page = Number(params.get('page'));
  const status = params.get('status') as CampaignStatus | null;
  return {
    page: Number.isInteger(page) && page > 1 ? page : 1,
    status: status && CAMPAIGN_STATUSES.includes(status) ? status : undefined,
    search: params.get('search')?.trim() || undefined,
  };
}

function campaignsQuery(f: Filters) {
  return {
    queryKey: ['campaigns', 'list', f.page, f.status ?? null, f.search ?? null],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      must(
        api.GET('/api/v1/campaigns', {
          params: { query: { page: f.page, status: f.status, search: f.search } },
          signal,
        }),
      ),
  };
}

/** The search box: typing updates the URL after 250 ms; the URL (back, a pasted link) updates the box. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (value: string) => void }) {
  const [text, setText] = useUrlSearch(value, onSearch);
  return (
    <>
      <label className="sr-only" htmlFor="campaigns-search">
        Search campaigns
      </label>
      <input
        id="campaigns-search"
        type="search"
        placeholder="Search name or subject"
        className={`${inputClass} w-full sm:w-64`}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </>
  );
}

export default function Campaigns() {
  const session = useSignedIn();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const list = useQuery({ ...campaignsQuery(filters), placeholderData: keepPreviousData });
  const rows = list.data?.campaigns ?? [];
  const hasOlder = filters.page < (list.data?.totalPage ?? 0);

  // The next page when idle, so "Older" is instant (a timer where requestIdleCallback is missing).
  useEffect(() => {
    if (!hasOlder) return;
    const prefetch = () => void queryClient.prefetchQuery(campaignsQuery({ ...filters, page: filters.page + 1 }));
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

  const chips = [
    filters.status ? { key: 'status', label: `Status: ${campaignStatusWord(filters.status)}` } : null,
    filters.search ? { key: 'search', label: `Search: ${filters.search}` } : null,
  ].filter((c) => c !== null);
  // The empty state carries the button when there is nothing at all yet.
  const noneYet = !list.isPending && !list.isError && rows.length === 0 && filters.page === 1 && chips.length === 0;
  const add = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      New campaign
    </Button>
  );

  return (
    <>
      <title>Campaigns · Herald</title>
      <PageHeader title="Campaigns" actions={noneYet ? null : add} />
      <div className="mb-3 flex flex-wrap items-center gap-2" role="search" aria-label="Filter campaigns">
        <SearchBox value={filters.search ?? ''} onSearch={(search) => update({ search })} />
        <label className="sr-only" htmlFor="campaigns-status">
          Status
        </label>
        <select
          id="campaigns-status"
          className="h-8 rounded-md border border-control bg-bg px-2 text-[13px] pointer-coarse:h-10"
          value={filters.status ?? ''}
          onChange={(e) => update({ status: e.target.value })}
        >
          <option value="">Any status</option>
          {CAMPAIGN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {campaignStatusWord(s)}
            </option>
          ))}
        </select>
        {chips.map((chip) => (
          <span
            key={chip.key}
            className="inline-flex h-7 max-w-full items-center gap-1 rounded-full border border-line pr-1 pl-3 text-[12px]"
          >
            <span className="truncate">{chip.label}</span>
            <button
              type="button"
              aria-label={`Remove filter ${chip.label}`}
              className="flex size-5 shrink-0 items-center justify-center rounded-full hover:bg-muted"
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
        chips.length > 0 ? (
          <EmptyState title="No campaign matches these filters." />
        ) : (
          <EmptyState title="No campaigns yet" action={add}>
            <p>
              A campaign sends one email to the subscribed contacts of a book or a segment, with an unsubscribe link.
            </p>
            <div className="mt-3 text-left">
              <MonoBlock
                copyLabel="Copy curl"
                text={`${curlFor(session.instance.publicUrl, '/api/v1/campaigns', 'POST')} \\\n  -H "Content-Type: application/json" \\\n  -d '{"name":"November news","from":"news@example.com","subject":"What is new","contactBookId":"cb_…"}'`}
              />
            </div>
          </EmptyState>
        )
      ) : (
        <Table label="Campaigns" className={list.isPlaceholderData ? 'opacity-70' : undefined}>
          <colgroup>
            <col />
            <col className="w-[120px]" />
            <col className="hidden w-[130px] md:table-column" />
            <col className="hidden w-[190px] sm:table-column" />
            <col className="hidden w-[100px] md:table-column" />
          </colgroup>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Status</Th>
              <Th className="hidden md:table-cell">Scheduled</Th>
              <Th className="hidden sm:table-cell">Progress</Th>
              <Th className="hidden text-right md:table-cell">Delivered</Th>
            </tr>
          </thead>
          <tbody>
            {list.isPending ? (
              <SkeletonRows rows={5} columns={5} />
            ) : (
              rows.map((c) => (
                <tr key={c.id} className="hover:bg-surface">
                  <Td>
                    <Link to={`/campaigns/${c.id}`} className="font-medium hover:underline" title={c.subject}>
                      {c.name}
                    </Link>
                  </Td>
                  <Td>
                    <CampaignStatusBadge status={c.status} />
                  </Td>
                  <Td className="hidden text-fg-2 md:table-cell">
                    <Time value={c.scheduledAt} />
                  </Td>
                  <Td className="hidden sm:table-cell">
                    {c.status === 'DRAFT' || c.total === 0 ? (
                      <span className="text-fg-2">—</span>
                    ) : (
                      <ProgressBar sent={c.sent} total={c.total} label={`${c.name}: sending progress`} />
                    )}
                  </Td>
                  <Td className="hidden text-right tabular md:table-cell">
                    {c.sent > 0 ? formatPercent(ratio(c.delivered, c.sent)) : <span className="text-fg-2">—</span>}
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}
      <nav aria-label="Pages" className="mt-3 flex items-center justify-end gap-2">
        {list.data && list.data.totalPage > 1 ? (
          <span className="mr-auto text-[13px] text-fg-2 tabular">
            Page {filters.page} of {list.data.totalPage}
          </span>
        ) : null}
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
      <CreateCampaign open={creating} onOpenChange={setCreating} />
    </>
  );
}

// The log's filters: search (address or subject, 250 ms debounce, `/` focuses it), status, domain,
// date (24 h / 7 d / 30 d / a custom range of days) and campaign; each active one a removable chip,
// with Clear (Stripe's filter-chip pattern). Every change goes to the URL and drops the cursor.
import { useQuery } from '@tanstack/react-query';
import { Search, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { api, must } from '../api/client.ts';
import { useDomains } from '../lib/use-domains.ts';
import { useUrlSearch } from '../lib/use-url-search.ts';
import { Button } from '../ui/button.tsx';
import { statusWord } from '../ui/status-badge.tsx';
import { EMAIL_STATUSES, type EmailFilters } from './emails-query.ts';

/** A change of the URL: a name to its new value(s), null or '' to remove it. */
export type FilterChanges = Record<string, string | string[] | null>;

const control = 'h-8 rounded-md border border-control bg-bg px-2 text-[13px] pointer-coarse:h-10';
const SINCE_LABELS = { '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' } as const;

/** The team's newest campaigns for the picker: a small lookup, fetched once and kept 5 minutes. */
function useCampaigns() {
  return useQuery({
    queryKey: ['campaigns', 'picker'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/campaigns', { params: { query: { page: 1 } }, signal })),
    staleTime: 5 * 60_000,
  });
}

function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [typed, setTyped] = useUrlSearch(value, onSearch);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const focus = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey) return;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      event.preventDefault();
      input.current?.focus();
    };
    document.addEventListener('keydown', focus);
    return () => document.removeEventListener('keydown', focus);
  }, []);
  return (
    <div className="relative w-full sm:w-72">
      <Search
        aria-hidden="true"
        size={14}
        className="pointer-events-none absolute top-1/2 left-2 -translate-y-1/2 text-fg-2"
      />
      <input
        ref={input}
        type="search"
        aria-label="Search by address or subject"
        aria-keyshortcuts="/"
        placeholder="Search address or subject  /"
        className={`${control} w-full pl-7`}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
    </div>
  );
}

export function EmailFiltersBar({
  filters,
  onChange,
  onClear,
}: {
  filters: EmailFilters;
  onChange: (changes: FilterChanges, options?: { replace?: boolean }) => void;
  onClear: () => void;
}) {
  const domains = useDomains();
  const campaigns = useCampaigns();
  const campaignList = campaigns.data?.campaigns ?? [];
  const domainName = (id: number) => domains.data?.find((d) => d.id === id)?.name ?? `#${id}`;
  const campaignName = (id: string) => campaignList.find((c) => c.id === id)?.name ?? id;
  const statuses = filters.statuses;
  const range =
    filters.since === 'custom'
      ? `${filters.from ?? '…'} – ${filters.to ?? '…'}`
      : filters.since
        ? SINCE_LABELS[filters.since]
        : null;
  const chips: { key: string; label: string; remove: FilterChanges }[] = [
    ...(filters.q ? [{ key: 'q', label: `Search: “${filters.q}”`, remove: { q: null } }] : []),
    ...statuses.map((s) => ({
      key: `status-${s}`,
      label: `Status: ${statusWord(s)}`,
      remove: { status: statuses.filter((other) => other !== s) },
    })),
    ...(filters.domain
      ? [{ key: 'domain', label: `Domain: ${domainName(filters.domain)}`, remove: { domain: null } }]
      : []),
    ...(range ? [{ key: 'since', label: `Date: ${range}`, remove: { since: null, from: null, to: null } }] : []),
    ...(filters.campaign
      ? [{ key: 'campaign', label: `Campaign: ${campaignName(filters.campaign)}`, remove: { campaign: null } }]
      : []),
  ];

  return (
    <div className="mb-3 space-y-2" role="search" aria-label="Filter emails">
      <div className="flex flex-wrap items-center gap-2">
        <SearchBox value={filters.q ?? ''} onSearch={(q) => onChange({ q }, { replace: true })} />
        <select
          aria-label="Status"
          className={control}
          value={statuses.length === 1 ? statuses[0] : statuses.length > 1 ? 'several' : ''}
          onChange={(e) => onChange({ status: e.target.value ? [e.target.value] : null })}
        >
          <option value="">Any status</option>
          {statuses.length > 1 ? (
            <option value="several" disabled>
              {statuses.length} statuses
            </option>
          ) : null}
          {EMAIL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusWord(s)}
            </option>
          ))}
        </select>
        <select
          aria-label="Domain"
          className={control}
          value={filters.domain ?? ''}
          onChange={(e) => onChange({ domain: e.target.value })}
        >
          <option value="">All domains</option>
          {domains.data?.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
        <select
          aria-label="Date"
          className={control}
          value={filters.since ?? ''}
          onChange={(e) => onChange({ since: e.target.value, from: null, to: null })}
        >
          <option value="">Any time</option>
          {Object.entries(SINCE_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
          <option value="custom">Custom range</option>
        </select>
        {filters.since === 'custom' ? (
          <>
            <input
              type="date"
              aria-label="From day"
              className={control}
              value={filters.from ?? ''}
              max={filters.to}
              onChange={(e) => onChange({ since: 'custom', from: e.target.value })}
            />
            <input
              type="date"
              aria-label="To day"
              className={control}
              value={filters.to ?? ''}
              min={filters.from}
              onChange={(e) => onChange({ since: 'custom', to: e.target.value })}
            />
          </>
        ) : null}
        {campaignList.length > 0 || filters.campaign ? (
          <select
            aria-label="Campaign"
            className={`${control} max-w-full sm:max-w-56`}
            value={filters.campaign ?? ''}
            onChange={(e) => onChange({ campaign: e.target.value })}
          >
            <option value="">Any campaign</option>
            {filters.campaign && !campaignList.some((c) => c.id === filters.campaign) ? (
              <option value={filters.campaign}>{filters.campaign}</option>
            ) : null}
            {campaignList.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        ) : null}
      </div>
      {chips.length > 0 ? (
        <div className="flex flex-wrap items-center gap-2">
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
                onClick={() => onChange(chip.remove)}
              >
                <X aria-hidden="true" size={12} />
              </button>
            </span>
          ))}
          <Button variant="ghost" onClick={onClear}>
            Clear
          </Button>
        </div>
      ) : null}
    </div>
  );
}

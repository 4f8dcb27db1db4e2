// Overview (numbers first, one chart): sent, delivered %, bounce and complaint rates for ?days=7|30
// and ?domain=, each 7-day figure with its change on the week before; the chart (uPlot, its own
// chunk) with a table as its accessible alternative; reputation; quota; wallet; the setup checklist.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { useDomains } from '../lib/use-domains.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { formatCount, formatPercent, ratio } from '../ui/format.ts';
import { PageHeader, Section } from '../ui/page-header.tsx';
import { ErrorState } from '../ui/states.tsx';
import { SetupChecklist } from './overview-checklist.tsx';

// uPlot formats in navigator.language at load, which throws for an invalid tag (Chromium under the C locale: en-US@posix).
const SeriesChart = lazy(() =>
  import('./overview-chart.tsx').catch(() => ({
    default: () => <p className="text-[13px] text-fg-2">The chart could not be drawn in this browser.</p>,
  })),
);

export interface Day {
  date: string;
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
}

function totals(days: Day[]) {
  const sum = (key: keyof Omit<Day, 'date'>) => days.reduce((n, d) => n + d[key], 0);
  return { sent: sum('sent'), delivered: sum('delivered'), bounced: sum('bounced'), complained: sum('complained') };
}

function Stat({ label, value, change }: { label: string; value: string; change?: string }) {
  return (
    <div className="rounded-lg border border-line p-4">
      <dt className="text-[12px] font-medium text-fg-2">{label}</dt>
      <dd className="mt-1 text-[28px] leading-9 font-semibold tabular">{value}</dd>
      {change ? <dd className="text-[12px] text-fg-2 tabular">{change}</dd> : null}
    </div>
  );
}

function changeText(now: number, before: number, kind: 'count' | 'rate'): string {
  if (kind === 'rate') {
    const points = (now - before) * 100;
    return `${points >= 0 ? '+' : '−'}${Math.abs(points).toFixed(1)} pts on the week before`;
  }
  if (before === 0) return now === 0 ? 'No change on the week before' : 'None the week before';
  const change = (now - before) / before;
  return `${change >= 0 ? '+' : '−'}${formatPercent(Math.abs(change))} on the week before`;
}

function Meter({ label, used, limit, unlimited }: { label: string; used: number; limit: number; unlimited: boolean }) {
  const share = unlimited || limit <= 0 ? 0 : Math.min(1, used / limit);
  return (
    <div>
      <div className="flex justify-between text-[13px]">
        <span>{label}</span>
        <span className="tabular text-fg-2">
          {unlimited
            ? `${formatCount(used)} · no limit`
            : `${formatCount(used)} of ${formatCount(limit)} · ${formatPercent(share)}`}
        </span>
      </div>
      {unlimited ? null : (
        <div
          role="meter"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={used}
          className="mt-1 h-1.5 overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full bg-accent" style={{ width: `${share * 100}%` }} />
        </div>
      )}
    </div>
  );
}

export function Overview() {
  const session = useSignedIn();
  const [params, setParams] = useSearchParams();
  const days = params.get('days') === '7' ? 7 : 30;
  const domainParam = params.get('domain');
  const domainId = domainParam && /^\d+$/.test(domainParam) ? Number(domainParam) : undefined;
  const [asTable, setAsTable] = useState(false);
  const domains = useDomains();

  // One read of 30 days: the 7-day view and the week before it are both inside it.
  const series = useQuery({
    queryKey: ['analytics', 'series', domainId ?? null],
    queryFn: ({ signal }) =>
      must(api.GET('/api/v1/analytics/email-time-series', { params: { query: { days: '30', domainId } }, signal })),
  });
  const reputation = useQuery({
    queryKey: ['analytics', 'reputation', domainId ?? null],
    queryFn: ({ signal }) =>
      must(api.GET('/api/v1/analytics/reputation-metrics', { params: { query: { domainId } }, signal })),
  });
  const usage = useQuery({
    queryKey: ['billing', 'usage'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/billing/usage', { signal })),
    retry: false,
  });
  const wallet = useQuery({
    queryKey: ['billing', 'transactions', 'latest'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/billing/transactions', { params: { query: { limit: 1 } }, signal })),
    retry: false,
  });

  const setParam = (name: string, value: string | null) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      if (value === null) copy.delete(name);
      else copy.set(name, value);
      return copy;
    });

  const all: Day[] = series.data?.result ?? [];
  const shown = all.slice(-days);
  const now = totals(shown);
  const before = days === 7 ? totals(all.slice(-14, -7)) : null;
  const bounceRate = ratio(now.bounced, now.sent);
  const complaintRate = ratio(now.complained, now.sent);

  return (
    <>
      <title>Overview · Herald</title>
      <PageHeader
        title="Overview"
        facts={<span>{session.team.name}</span>}
        actions={
          <>
            <label className="sr-only" htmlFor="overview-domain">
              Domain
            </label>
            <select
              id="overview-domain"
              className="h-8 rounded-md border border-control bg-bg px-2 text-[13px]"
              value={domainId ?? ''}
              onChange={(e) => setParam('domain', e.target.value === '' ? null : e.target.value)}
            >
              <option value="">All domains</option>
              {domains.data?.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
            <div role="group" aria-label="Period" className="flex rounded-md border border-control">
              {[7, 30].map((n) => (
                <button
                  key={n}
                  type="button"
                  aria-pressed={days === n}
                  onClick={() => setParam('days', n === 30 ? null : String(n))}
                  className={cn('h-8 px-3 text-[13px]', days === n ? 'bg-muted font-medium' : 'text-fg-2')}
                >
                  {n} days
                </button>
              ))}
            </div>
          </>
        }
      />
      {series.isError ? (
        <ErrorState error={series.error} onRetry={() => void series.refetch()} />
      ) : (
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-busy={series.isPending}>
          <Stat
            label="Sent"
            value={series.isPending ? '–' : formatCount(now.sent)}
            change={before ? changeText(now.sent, before.sent, 'count') : undefined}
          />
          <Stat
            label="Delivered"
            value={series.isPending ? '–' : formatPercent(ratio(now.delivered, now.sent))}
            change={
              before
                ? changeText(ratio(now.delivered, now.sent), ratio(before.delivered, before.sent), 'rate')
                : undefined
            }
          />
          <Stat
            label="Bounce rate"
            value={series.isPending ? '–' : formatPercent(bounceRate)}
            change={before ? changeText(bounceRate, ratio(before.bounced, before.sent), 'rate') : undefined}
          />
          <Stat
            label="Complaint rate"
            value={series.isPending ? '–' : formatPercent(complaintRate)}
            change={before ? changeText(complaintRate, ratio(before.complained, before.sent), 'rate') : undefined}
          />
        </dl>
      )}

      <Section
        title={`Last ${days} days`}
        actions={
          <Button onClick={() => setAsTable(!asTable)} aria-pressed={asTable}>
            {asTable ? 'View as chart' : 'View as table'}
          </Button>
        }
      >
        {asTable ? (
          <SeriesTable days={shown} />
        ) : (
          <div className="min-h-[240px] rounded-lg border border-line p-2">
            <Suspense fallback={<div className="h-full animate-pulse rounded bg-muted" />}>
              {shown.length > 0 ? <SeriesChart days={shown} /> : null}
            </Suspense>
          </div>
        )}
      </Section>

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <Section title="Reputation">
          {reputation.data ? (
            <dl className="grid grid-cols-2 gap-3 text-[13px]">
              <div>
                <dt className="text-fg-2">Bounce rate (hard)</dt>
                <dd className="text-[16px] font-semibold tabular">{formatPercent(reputation.data.bounceRate)}</dd>
              </div>
              <div>
                <dt className="text-fg-2">Complaint rate</dt>
                <dd className="text-[16px] font-semibold tabular">{formatPercent(reputation.data.complaintRate)}</dd>
              </div>
            </dl>
          ) : reputation.isError ? (
            <ErrorState error={reputation.error} onRetry={() => void reputation.refetch()} />
          ) : null}
        </Section>
        <Section title="Quota">
          {usage.data ? (
            <div className="space-y-3">
              <Meter label="Emails this month" {...usage.data.sending.monthly} />
              <Meter label="Emails today" {...usage.data.sending.daily} />
              <p className="text-[12px] text-fg-2">Plan: {usage.data.plan.displayName}</p>
            </div>
          ) : usage.isError ? (
            <p className="text-[13px] text-fg-2">Quota is shown to team admins.</p>
          ) : null}
          {wallet.data && wallet.data.data.length > 0 ? (
            <p className="mt-3 text-[13px]">
              Wallet balance:{' '}
              <span className="font-semibold tabular">{wallet.data.data[0]!.balanceAfterFormatted}</span>
            </p>
          ) : null}
        </Section>
      </div>

      <SetupChecklist session={session} />
      <p className="mt-8 text-[13px]">
        <Link className="text-link underline underline-offset-2" to="/emails">
          Open the email log
        </Link>
      </p>
    </>
  );
}

function SeriesTable({ days }: { days: Day[] }) {
  return (
    <div className="max-h-[320px] overflow-auto rounded-lg border border-line">
      <table className="w-full text-[13px]" aria-label="Emails per day">
        <thead>
          <tr className="bg-surface text-left text-[12px] text-fg-2">
            <th scope="col" className="h-9 px-3 font-medium">
              Day (UTC)
            </th>
            {['Sent', 'Delivered', 'Bounced', 'Complained'].map((h) => (
              <th key={h} scope="col" className="h-9 px-3 text-right font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date} className="border-t border-line">
              <th scope="row" className="h-9 px-3 text-left font-normal tabular">
                {d.date}
              </th>
              {[d.sent, d.delivered, d.bounced, d.complained].map((n, i) => (
                <td key={i} className="px-3 text-right tabular">
                  {formatCount(n)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

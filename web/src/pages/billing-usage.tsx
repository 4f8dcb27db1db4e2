// Usage against the plan enforced today (GET /v1/billing/usage): meters for sending this month and
// today and for domains, contact books, members and webhooks ("1,234 of 3,000 · 41%"), this month's
// texts and codes, and Pro units when the plan counts them.
import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import { cn } from '../ui/cn.ts';
import { formatCount, formatPercent } from '../ui/format.ts';
import { ErrorState, Loading } from '../ui/states.tsx';

interface MeterValue {
  used: number;
  limit: number;
  unlimited: boolean;
}

function Meter({ label, value }: { label: string; value: MeterValue }) {
  const { used, limit, unlimited } = value;
  const share = unlimited || limit <= 0 ? 0 : Math.min(1, used / limit);
  const full = !unlimited && limit >= 0 && used >= limit;
  return (
    <div>
      <div className="flex justify-between gap-2 text-[13px]">
        <span>{label}</span>
        <span className="text-fg-2 tabular">
          {unlimited
            ? `${formatCount(used)} · no limit`
            : `${formatCount(used)} of ${formatCount(limit)} · ${formatPercent(share)}`}
          {full ? ' · at the limit' : ''}
        </span>
      </div>
      {unlimited ? null : (
        <div
          role="meter"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={Math.max(limit, 0)}
          aria-valuenow={Math.min(used, Math.max(limit, 0))}
          aria-valuetext={`${formatCount(used)} of ${formatCount(limit)}`}
          className="mt-1 h-1.5 overflow-hidden rounded-full bg-muted"
        >
          <div className={cn('h-full', full ? 'bg-danger' : 'bg-accent')} style={{ width: `${share * 100}%` }} />
        </div>
      )}
    </div>
  );
}

function Count({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-2 border-b border-line py-2 text-[13px]">
      <dt>{label}</dt>
      <dd className="tabular">{value}</dd>
    </div>
  );
}

export function BillingUsage() {
  const usage = useQuery({
    queryKey: ['billing', 'usage'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/billing/usage', { signal })),
  });
  if (usage.isError) return <ErrorState error={usage.error} onRetry={() => void usage.refetch()} />;
  if (usage.isPending) return <Loading label="Loading usage" />;
  const u = usage.data;
  const heldToFree = u.plan.key !== u.plan.effectiveKey;
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <section aria-labelledby="usage-sending">
        <h2 id="usage-sending" className="text-[16px] leading-6 font-semibold">
          Sending
        </h2>
        <p className="mb-3 text-[13px] text-fg-2">
          {u.period.label} · limits of the {u.plan.displayName} plan
          {heldToFree ? ' (held to Free until the Pro month is paid)' : ''}
        </p>
        <div className="space-y-3">
          <Meter label="Emails this month" value={u.sending.monthly} />
          <Meter label="Emails today" value={u.sending.daily} />
        </div>
        <dl className="mt-4">
          <Count label="Transactional emails this month" value={formatCount(u.emails.transactionalThisMonth)} />
          <Count label="Marketing emails this month" value={formatCount(u.emails.marketingThisMonth)} />
          <Count label="SMS parts this month" value={formatCount(u.thisMonth.texts)} />
          <Count label="One-time codes this month" value={formatCount(u.thisMonth.codes)} />
          {u.thisMonth.textSpendFormatted ? (
            <Count label="SMS spend this month" value={u.thisMonth.textSpendFormatted} />
          ) : null}
          <Count label="API requests per second" value={formatCount(u.apiRateLimit)} />
        </dl>
      </section>
      <section aria-labelledby="usage-resources">
        <h2 id="usage-resources" className="mb-3 text-[16px] leading-6 font-semibold">
          Resources
        </h2>
        <div className="space-y-3">
          <Meter label="Domains" value={u.resources.domains} />
          <Meter label="Contact books" value={u.resources.contactBooks} />
          <Meter label="Team members" value={u.resources.teamMembers} />
          <Meter label="Webhooks" value={u.resources.webhooks} />
        </div>
        {u.units ? (
          <>
            <h3 className="mt-6 text-[14px] font-semibold">Pro units</h3>
            <dl className="mt-1">
              <Count label="Included" value={formatCount(u.units.included)} />
              <Count label="Used" value={formatCount(u.units.used)} />
              <Count label="Overage" value={`${formatCount(u.units.overage)} · ${u.units.overageFormatted}`} />
              {u.units.unitPriceFormatted ? <Count label="Unit price" value={u.units.unitPriceFormatted} /> : null}
            </dl>
            <p className="mt-2 text-[12px] text-fg-2">{u.units.note}</p>
          </>
        ) : null}
      </section>
    </div>
  );
}

// A campaign's progress (a bar and "sent/total") and its statistics, each count with its share of
// the emails sent; the numbers are the API's counters, polled by the page while they move.
import { formatCount, formatPercent, ratio } from '../ui/format.ts';
import type { Campaign } from './campaign-common.tsx';

export function ProgressBar({ sent, total, label }: { sent: number; total: number; label: string }) {
  const share = total > 0 ? Math.min(1, sent / total) : 0;
  return (
    <span className="flex min-w-0 items-center gap-2">
      <span
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.min(sent, total)}
        aria-valuetext={`${formatCount(sent)} of ${formatCount(total)} sent`}
        className="block h-1.5 w-full max-w-[120px] min-w-[40px] overflow-hidden rounded-full bg-muted"
      >
        <span className="block h-full rounded-full bg-accent" style={{ width: `${share * 100}%` }} />
      </span>
      <span className="shrink-0 text-[12px] text-fg-2 tabular">
        {formatCount(sent)}/{formatCount(total)}
      </span>
    </span>
  );
}

interface Stat {
  label: string;
  value: number;
  /** The share shown under the number, of the emails sent. */
  share?: boolean;
}

export function CampaignStats({ campaign: c }: { campaign: Campaign }) {
  const stats: Stat[] = [
    { label: 'Recipients', value: c.total },
    { label: 'Sent', value: c.sent },
    { label: 'Delivered', value: c.delivered, share: true },
    { label: 'Opened', value: c.opened, share: true },
    { label: 'Clicked', value: c.clicked, share: true },
    { label: 'Bounced', value: c.bounced, share: true },
    { label: 'Complained', value: c.complained, share: true },
    { label: 'Unsubscribed', value: c.unsubscribed, share: true },
  ];
  const share = c.total > 0 ? Math.min(1, c.sent / c.total) : 0;
  return (
    <div className="space-y-4">
      <div>
        <div className="mb-1 flex items-baseline justify-between gap-2 text-[13px]">
          <span className="font-medium">Progress</span>
          <span className="text-fg-2 tabular">
            {formatCount(c.sent)} of {formatCount(c.total)} sent · {formatPercent(share)}
          </span>
        </div>
        <span
          role="progressbar"
          aria-label="Sending progress"
          aria-valuemin={0}
          aria-valuemax={c.total}
          aria-valuenow={Math.min(c.sent, c.total)}
          aria-valuetext={`${formatCount(c.sent)} of ${formatCount(c.total)} sent`}
          className="block h-2 w-full overflow-hidden rounded-full bg-muted"
        >
          <span className="block h-full rounded-full bg-accent" style={{ width: `${share * 100}%` }} />
        </span>
      </div>
      <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-lg border border-line bg-line sm:grid-cols-4">
        {stats.map((s) => (
          <div key={s.label} className="bg-bg p-3">
            <dt className="text-[12px] text-fg-2">{s.label}</dt>
            <dd className="text-[28px] leading-9 font-semibold tabular">{formatCount(s.value)}</dd>
            {s.share ? (
              <dd className="text-[12px] text-fg-2 tabular">
                {c.sent > 0 ? `${formatPercent(ratio(s.value, c.sent))} of sent` : '—'}
              </dd>
            ) : null}
          </div>
        ))}
      </dl>
      {c.hardBounced > 0 ? (
        <p className="text-[13px] text-fg-2">
          {formatCount(c.hardBounced)} of the bounces were permanent (hard bounces).
        </p>
      ) : null}
    </div>
  );
}

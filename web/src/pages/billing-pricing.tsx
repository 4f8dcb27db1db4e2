// The price list in the team's currency (GET /v1/billing/pricing): the Pro plan, then one table per
// channel, product lines down and volume tiers across, each price as the API formats it.
import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client.ts';
import { ErrorState, Loading } from '../ui/states.tsx';
import { Tag } from '../ui/status-badge.tsx';

export function BillingPricing() {
  const pricing = useQuery({
    queryKey: ['billing', 'pricing'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/billing/pricing', { signal })),
    staleTime: 5 * 60_000,
  });
  if (pricing.isError) return <ErrorState error={pricing.error} onRetry={() => void pricing.refetch()} />;
  if (pricing.isPending) return <Loading label="Loading prices" />;
  const p = pricing.data;
  return (
    <div className="space-y-8">
      <p className="text-[14px]">
        {p.pro.configured && p.pro.monthlyFormatted
          ? `Pro: ${p.pro.monthlyFormatted} a month${p.pro.fixedPrice ? ' (a fixed price in this currency)' : ''}.`
          : `Pro is not priced in ${p.pro.currency} yet.`}{' '}
        <span className="text-fg-2">Prices in {p.currency}.</span>
      </p>
      {p.channels.map((channel) => (
        <section key={channel.channel} aria-labelledby={`pricing-${channel.channel}`}>
          <h2 id={`pricing-${channel.channel}`} className="mb-3 text-[16px] leading-6 font-semibold">
            {channel.label}
          </h2>
          {/* Many tiers scroll sideways on a phone: the region takes focus so keys can scroll it. */}
          <div
            className="overflow-x-auto rounded-lg border border-line"
            tabIndex={0}
            role="region"
            aria-label={`${channel.label} prices, scrollable`}
          >
            <table className="w-full border-collapse text-[13px] leading-5" aria-label={`${channel.label} prices`}>
              <thead>
                <tr>
                  <th scope="col" className="h-9 bg-surface px-3 text-left text-[12px] font-medium text-fg-2">
                    Product
                  </th>
                  {channel.tiers.map((tier) => (
                    <th
                      key={tier.id}
                      scope="col"
                      className="h-9 bg-surface px-3 text-right text-[12px] font-medium whitespace-nowrap text-fg-2"
                    >
                      {tier.name}
                      <span className="block font-normal">{tier.volumeLabel}</span>
                      {tier.recommended ? <Tag tone="info">Recommended</Tag> : null}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {channel.lines.map((line) => (
                  <tr key={line.productLine} className="border-t border-line">
                    <th scope="row" className="h-9 px-3 text-left font-normal">
                      {line.label}
                      {line.monthlyFee ? <span className="text-fg-2"> · a month</span> : null}
                    </th>
                    {line.cells.map((cell, i) => (
                      <td key={cell?.tierId ?? i} className="h-9 px-3 text-right tabular whitespace-nowrap">
                        {cell === null ? '—' : (cell.priceFormatted ?? 'On request')}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </div>
  );
}

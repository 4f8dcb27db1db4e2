// GET /v1/billing/pricing: the price list of HERALD_PRICES_FILE in the team's billing currency (the
// wallet's, else the team's; USD when none was chosen). Prices in millionths of the major unit.
import type { z } from 'zod';
import { formatMillionths, formatMinor, type Currency } from '../platform/money.ts';
import type { PriceList } from '../platform/price-list.ts';
import type { PriceListRead } from './plan-schemas.ts';

export function priceListView(prices: PriceList, currency: Currency): z.infer<typeof PriceListRead> {
  const priced = prices.currencies[currency];
  const channels = Object.entries(priced.channels).map(([channel, c]) => ({
    channel,
    label: c.label,
    tiers: c.tiers.map((tier, position) => ({
      id: tier.id,
      position,
      name: tier.name,
      minVolume: tier.minVolume,
      maxVolume: tier.maxVolume,
      recommended: tier.recommended,
      volumeLabel: tier.volumeLabel,
    })),
    lines: c.lines.map((line) => ({
      productLine: line.productLine,
      label: line.label,
      monthlyFee: line.monthlyFee,
      cells: line.cells.map((price, i) => ({
        tierId: c.tiers[i]!.id,
        priceMicro: Number(price),
        priceFormatted: formatMillionths(price, currency),
      })),
    })),
  }));
  const pro = priced.pro;
  return {
    currency,
    channels,
    pro: pro
      ? {
          currency,
          monthlyMinor: Number(pro.monthlyMinor),
          monthlyFormatted: formatMinor(pro.monthlyMinor, currency),
          unitPriceMicro: Number(pro.unitPriceMicro),
          fixedPrice: pro.fixedPrice,
          configured: true,
        }
      : {
          currency,
          monthlyMinor: null,
          monthlyFormatted: null,
          unitPriceMicro: null,
          fixedPrice: false,
          configured: false,
        },
  };
}

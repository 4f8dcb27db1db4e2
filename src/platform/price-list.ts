// The price list (HERALD_PRICES_FILE, shipped default config/prices.json): per currency, per channel,
// volume tiers and per-message prices in millionths of the major unit, plus the Pro plan's price.
// Read and checked once at start; a bad file stops start-up naming the variable and the first bad
// path in it. Every integer in the file is read as a bigint (JSON.parse's source text), so a price
// past 2^53 keeps its digits and a fraction such as 0.5 or 1e3 is refused rather than rounded.
import fs from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config-error.ts';

import type { Currency } from './money.ts';

/** The one rounding rule for turning millionths into wallet minor units (platform/money.ts applies it). */
const ROUNDING_RULE = 'half away from zero to the minor unit';

/** The line that prices every destination without a line of its own. */
const DEFAULT_DESTINATION = 'default';

const VARIABLE = 'HERALD_PRICES_FILE';

const integer = (what: string) => z.bigint({ error: `must be an integer (${what})` });
const millionths = integer('millionths of the major unit').nonnegative({ error: 'must not be negative' });
const volume = integer('messages a month')
  .nonnegative({ error: 'must not be negative' })
  .max(BigInt(Number.MAX_SAFE_INTEGER), { error: 'is too large' })
  .transform(Number);

const tierSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  minVolume: volume,
  maxVolume: volume.nullable(),
  recommended: z.boolean(),
  volumeLabel: z.string(),
});

const lineSchema = z.strictObject({
  productLine: z.string().min(1),
  label: z.string().min(1),
  /** ISO 3166 alpha-2, or `default` for every other destination. */
  country: z.string().regex(/^([A-Z]{2}|default)$/, { error: 'must be an ISO 3166 alpha-2 code or "default"' }),
  monthlyFee: z.boolean(),
  /** One price per tier, in tier order. */
  cells: z.array(millionths),
});

type Tier = z.output<typeof tierSchema>;

/** Tiers follow each other without gaps from 0, and only the last is open-ended. */
function checkTierOrder(tiers: readonly Tier[], ctx: z.RefinementCtx): void {
  tiers.forEach((tier, i) => {
    const expectedMin = i === 0 ? 0 : (tiers[i - 1]!.maxVolume ?? Number.NaN) + 1;
    if (tier.minVolume !== expectedMin) {
      ctx.addIssue({
        code: 'custom',
        path: ['tiers', i, 'minVolume'],
        message: i === 0 ? 'must be 0' : `must be ${expectedMin}: tiers follow each other without gaps`,
      });
    }
    const last = i === tiers.length - 1;
    if (last !== (tier.maxVolume === null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['tiers', i, 'maxVolume'],
        message: last ? 'must be null on the last tier' : 'must be a number on every tier but the last',
      });
    } else if (tier.maxVolume !== null && tier.maxVolume < tier.minVolume) {
      ctx.addIssue({ code: 'custom', path: ['tiers', i, 'maxVolume'], message: 'must not be below minVolume' });
    }
  });
}

const channelSchema = z
  .strictObject({ label: z.string().min(1), tiers: z.array(tierSchema).min(1), lines: z.array(lineSchema).min(1) })
  .superRefine((channel, ctx) => {
    // A volume refused above (negative, too large) is reported already and was never turned into a
    // number: comparing its bigint with numbers would throw a TypeError instead of naming the path.
    const volumesRead = channel.tiers.every(
      (tier) => typeof tier.minVolume === 'number' && (tier.maxVolume === null || typeof tier.maxVolume === 'number'),
    );
    if (volumesRead) checkTierOrder(channel.tiers, ctx);
    const seen = new Set<string>();
    channel.lines.forEach((line, i) => {
      if (seen.has(line.country)) {
        ctx.addIssue({ code: 'custom', path: ['lines', i, 'country'], message: 'appears on two lines' });
      }
      seen.add(line.country);
      if (line.cells.length !== channel.tiers.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['lines', i, 'cells'],
          message: `must hold one price per tier (${channel.tiers.length})`,
        });
      }
    });
    if (!seen.has(DEFAULT_DESTINATION)) {
      ctx.addIssue({ code: 'custom', path: ['lines'], message: 'needs a line with country "default"' });
    }
  });

const proSchema = z.strictObject({
  /** The Pro month, in minor units of the currency. */
  monthlyMinor: integer('minor units').positive({ error: 'must be above 0' }),
  /** Price of one unit past the plan's included units, in millionths. */
  unitPriceMicro: millionths,
  /** true: the wallet pays this fixed price (NGN, KES); false: the card processor's price applies. */
  fixedPrice: z.boolean(),
});

const currencySchema = z.strictObject({
  channels: z.strictObject({ sms: channelSchema }),
  /** null: Pro is not priced in this currency yet. */
  pro: proSchema.nullable(),
});

const priceListSchema = z.strictObject({
  $comment: z.string().optional(),
  rounding: z.literal(ROUNDING_RULE, { error: `must be "${ROUNDING_RULE}"` }),
  currencies: z.strictObject({ USD: currencySchema, NGN: currencySchema, KES: currencySchema }),
});

export type PriceList = z.output<typeof priceListSchema>;
type ChannelPrices = PriceList['currencies'][Currency]['channels']['sms'];
type ProPrice = NonNullable<PriceList['currencies'][Currency]['pro']>;

/** Reads and checks the file; throws ConfigError naming HERALD_PRICES_FILE and the first bad path. */
export function loadPriceList(file: string): PriceList {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(VARIABLE, 'the path of a readable JSON price list (the file cannot be read)', file);
  }
  return parsePriceList(text, file);
}

export function parsePriceList(text: string, file: string): PriceList {
  let raw: unknown;
  try {
    raw = JSON.parse(text, integersAsBigInt);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ConfigError(VARIABLE, `a JSON price list; the file is not JSON (${detail})`, file);
  }
  let result: ReturnType<typeof priceListSchema.safeParse>;
  try {
    result = priceListSchema.safeParse(raw);
  } catch (error) {
    // A check that met a shape it did not expect: still one line naming the file, never a stack.
    const detail = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      VARIABLE,
      `a JSON price list shaped like config/prices.json (it cannot be checked: ${detail})`,
      file,
    );
  }
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = formatPath(issue.path);
    throw new ConfigError(
      VARIABLE,
      `a JSON price list shaped like config/prices.json; the first problem is at ${where}: ${issue.message}`,
      file,
    );
  }
  return result.data;
}

function integersAsBigInt(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value === 'number' && context?.source !== undefined && /^-?\d+$/.test(context.source)) {
    return BigInt(context.source);
  }
  return value;
}

/** `currencies.USD.channels.sms.lines[2].cells[0]`: how an operator finds the spot in the file. */
function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(the top level)';
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** Index of the tier a team with `monthlyVolume` messages this month is in. */
function tierIndex(channel: ChannelPrices, monthlyVolume: number): number {
  const i = channel.tiers.findIndex(
    (tier) => monthlyVolume >= tier.minVolume && (tier.maxVolume === null || monthlyVolume <= tier.maxVolume),
  );
  return i === -1 ? 0 : i;
}

/**
 * Price of one SMS part, in millionths of `currency`'s major unit, to `country` (ISO alpha-2; null
 * for a non-geographic number) for a team that has sent `monthlyVolume` SMS parts this month.
 */
export function smsPrice(list: PriceList, currency: Currency, country: string | null, monthlyVolume: number): bigint {
  const channel = list.currencies[currency].channels.sms;
  const line =
    channel.lines.find((l) => l.country === country) ?? channel.lines.find((l) => l.country === DEFAULT_DESTINATION)!;
  return line.cells[tierIndex(channel, monthlyVolume)]!;
}

/** The Pro plan's price in `currency`, or null when the file does not price it. */
export function proPrice(list: PriceList, currency: Currency): ProPrice | null {
  return list.currencies[currency].pro;
}

// Money as integers. Amounts are bigint minor units (USD cents, NGN kobo, KES cents); prices are bigint
// millionths of the major unit (the contract's price list and `unitPriceMicro`). One rounding rule
// takes a price to an amount; formatting goes through Intl.NumberFormat with a decimal string, so no
// amount ever passes through a floating-point number.

import { CURRENCIES, type Currency } from '../db/column-types.ts';

// The list sits with the column it constrains, so the table types need nothing from platform/.
export { CURRENCIES, type Currency };

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

interface CurrencyFormat {
  minorDigits: number;
  locale: string;
  /** Replaces ICU's currency symbol where the usual one differs (ICU prints "Ksh" for KES). */
  symbol?: string;
}

const FORMATS: Record<Currency, CurrencyFormat> = {
  USD: { minorDigits: 2, locale: 'en-US' },
  NGN: { minorDigits: 2, locale: 'en-NG' },
  KES: { minorDigits: 2, locale: 'en-KE', symbol: 'KSh' },
};

/** Digits after the decimal point: 2 for every supported currency. */
export function minorDigits(currency: Currency): number {
  return FORMATS[currency].minorDigits;
}

const MILLIONTH_DIGITS = 6;

/** Millionths in one minor unit (10,000 for a currency with 2 minor digits). */
function millionthsPerMinor(currency: Currency): bigint {
  return 10n ** BigInt(MILLIONTH_DIGITS - minorDigits(currency));
}

/** A price in millionths to minor units: THE rounding rule, half away from zero. */
export function millionthsToMinor(millionths: bigint, currency: Currency): bigint {
  const unit = millionthsPerMinor(currency);
  const quotient = millionths / unit; // truncates toward zero
  const remainder = millionths % unit; // carries the sign of millionths
  const twice = remainder < 0n ? -remainder * 2n : remainder * 2n;
  if (twice < unit) return quotient;
  return millionths < 0n ? quotient - 1n : quotient + 1n;
}

/** A price times a count of messages, exactly. */
export function priceTimes(millionths: bigint, count: number | bigint): bigint {
  if (typeof count === 'number' && !Number.isSafeInteger(count)) {
    throw new RangeError(`count must be a safe integer, got ${count}`);
  }
  return millionths * BigInt(count);
}

const formatters = new Map<string, Intl.NumberFormat>();

/** The currency's formatter, showing at least its minor digits and at most `maxDigits`. */
function formatterOf(currency: Currency, maxDigits: number): Intl.NumberFormat {
  const { locale, minorDigits: digits } = FORMATS[currency];
  const key = `${currency}:${maxDigits}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: maxDigits,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** The exact decimal string of an integer with `digits` fraction digits: (-123456n, 2) → "-1234.56". */
function decimalOf(value: bigint, digits: number): `${number}` {
  const negative = value < 0n;
  const digitsText = (negative ? -value : value).toString().padStart(digits + 1, '0');
  const whole = digitsText.slice(0, digitsText.length - digits);
  const fraction = digitsText.slice(digitsText.length - digits);
  return `${negative ? '-' : ''}${whole}${digits > 0 ? `.${fraction}` : ''}` as `${number}`;
}

/** The exact decimal string of an amount: -123456n USD → "-1234.56". */
export function minorToDecimal(amount: bigint, currency: Currency): `${number}` {
  return decimalOf(amount, minorDigits(currency));
}

/** An amount for people: USD "$1,234.56", NGN "₦1,234.56", KES "KSh 1,234.56", negatives "-$1.00". */
export function formatMinor(amount: bigint, currency: Currency): string {
  return formatDecimal(minorToDecimal(amount, currency), currency, minorDigits(currency));
}

/** `decimal` in the currency's format with up to `maxDigits` fraction digits, with our symbol where we set one. */
function formatDecimal(decimal: `${number}`, currency: Currency, maxDigits: number): string {
  const symbol = FORMATS[currency].symbol;
  return formatterOf(currency, maxDigits)
    .formatToParts(decimal)
    .map((part) => (symbol !== undefined && part.type === 'currency' ? symbol : part.value))
    .join('');
}

const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;
const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;

/**
 * An amount from JSON input: a number that is a safe integer, or a string of an integer (for amounts
 * past 2^53). Null for anything else, or for a value a bigint column cannot hold.
 */
export function parseMinor(value: unknown): bigint | null {
  let amount: bigint;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) return null;
    amount = BigInt(value);
  } else if (typeof value === 'string') {
    if (!INTEGER_TEXT.test(value)) return null;
    amount = BigInt(value);
  } else if (typeof value === 'bigint') {
    amount = value;
  } else {
    return null;
  }
  return amount < INT8_MIN || amount > INT8_MAX ? null : amount;
}

/** A price in millionths for people, as precise as it is: 7900n USD → "$0.0079", 30000000n NGN → "₦30.00". */
export function formatMillionths(millionths: bigint, currency: Currency): string {
  return formatDecimal(decimalOf(millionths, MILLIONTH_DIGITS), currency, MILLIONTH_DIGITS);
}

/** The largest wallet balance: every amount stays exact as a JSON number (also a CHECK in 0011_wallet.sql). */
export const MAX_BALANCE_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/** A JSON number for a minor amount; amounts are bounded by MAX_BALANCE_MINOR, so this is exact. */
export function minorToJson(amount: bigint): number {
  const value = Number(amount);
  if (!Number.isSafeInteger(value)) throw new Error(`amount ${amount} is beyond JSON's exact integers`);
  return value;
}

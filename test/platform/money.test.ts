// platform/money.ts cell by cell: each row an input and the output it must give.
import { describe, expect, it } from 'vitest';
import {
  CURRENCIES,
  formatMinor,
  isCurrency,
  MAX_BALANCE_MINOR,
  millionthsToMinor,
  minorDigits,
  minorToDecimal,
  minorToJson,
  parseMinor,
  priceTimes,
  type Currency,
} from '../../src/platform/money.ts';

const NBSP = '\u00a0';
const BEYOND_2_53 = 2n ** 53n + 1n; // 9,007,199,254,740,993: not a float

describe('currencies', () => {
  it('USD, NGN and KES, in that order', () => expect(CURRENCIES).toEqual(['USD', 'NGN', 'KES']));
  const cases: [unknown, boolean][] = [
    ['USD', true],
    ['NGN', true],
    ['KES', true],
    ['usd', false],
    ['EUR', false],
    ['', false],
    [null, false],
    [840, false],
  ];
  for (const [value, expected] of cases) {
    it(`isCurrency(${JSON.stringify(value)}) → ${expected}`, () => expect(isCurrency(value)).toBe(expected));
  }
  for (const currency of CURRENCIES) {
    it(`${currency} has 2 minor digits`, () => expect(minorDigits(currency)).toBe(2));
  }
});

describe('millionthsToMinor: half away from zero to the nearest minor unit', () => {
  // 1 minor unit = 10,000 millionths.
  const cases: [bigint, bigint][] = [
    [0n, 0n],
    [1n, 0n],
    [4_999n, 0n],
    [5_000n, 1n],
    [5_001n, 1n],
    [9_999n, 1n],
    [10_000n, 1n],
    [14_999n, 1n],
    [15_000n, 2n],
    [25_000n, 3n],
    [-1n, 0n],
    [-4_999n, 0n],
    [-5_000n, -1n],
    [-5_001n, -1n],
    [-15_000n, -2n],
    [-25_000n, -3n],
    [1_234_565_000n, 123_457n],
    [BEYOND_2_53 * 10_000n, BEYOND_2_53],
    [BEYOND_2_53 * 10_000n + 4_999n, BEYOND_2_53],
    [BEYOND_2_53 * 10_000n + 5_000n, BEYOND_2_53 + 1n],
    [-(BEYOND_2_53 * 10_000n + 5_000n), -(BEYOND_2_53 + 1n)],
  ];
  for (const currency of CURRENCIES) {
    for (const [millionths, minor] of cases) {
      it(`${currency} ${millionths} → ${minor}`, () => expect(millionthsToMinor(millionths, currency)).toBe(minor));
    }
  }
});

describe('priceTimes: exact in bigint', () => {
  const cases: [bigint, number | bigint, bigint][] = [
    [0n, 5, 0n],
    [1_500n, 0, 0n],
    [1_500n, 3, 4_500n],
    [1_500n, 3n, 4_500n],
    [-1_500n, 3, -4_500n],
    [1_000_001n, 9_007_199_254_740_991, 9_007_208_261_940_245_740_991n],
    [BEYOND_2_53, BEYOND_2_53, BEYOND_2_53 * BEYOND_2_53],
  ];
  for (const [price, count, total] of cases) {
    it(`${price} × ${count} → ${total}`, () => expect(priceTimes(price, count)).toBe(total));
  }
  for (const count of [1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Infinity]) {
    it(`a count of ${count} is refused`, () => expect(() => priceTimes(1n, count)).toThrow(RangeError));
  }
  it('a price of 3,000 millionths for 5 messages is 2 cents (15,000 millionths, rounded once)', () =>
    expect(millionthsToMinor(priceTimes(3_000n, 5), 'USD')).toBe(2n));
});

describe('minorToDecimal', () => {
  const cases: [bigint, string][] = [
    [0n, '0.00'],
    [1n, '0.01'],
    [10n, '0.10'],
    [100n, '1.00'],
    [123_456n, '1234.56'],
    [-1n, '-0.01'],
    [-100n, '-1.00'],
    [BEYOND_2_53, '90071992547409.93'],
  ];
  for (const [amount, text] of cases) {
    it(`${amount} → ${text}`, () => expect(minorToDecimal(amount, 'USD')).toBe(text));
  }
});

describe('formatMinor (what Node 24 ICU prints; KES takes the symbol KSh)', () => {
  const cases: [bigint, Currency, string][] = [
    [123_456n, 'USD', '$1,234.56'],
    [123_456n, 'NGN', '₦1,234.56'],
    [123_456n, 'KES', `KSh${NBSP}1,234.56`],
    [0n, 'USD', '$0.00'],
    [0n, 'NGN', '₦0.00'],
    [0n, 'KES', `KSh${NBSP}0.00`],
    [1n, 'USD', '$0.01'],
    [-100n, 'USD', '-$1.00'],
    [-100n, 'NGN', '-₦1.00'],
    [-100n, 'KES', `-KSh${NBSP}1.00`],
    [-1n, 'USD', '-$0.01'],
    [100_000_000n, 'NGN', '₦1,000,000.00'],
    [BEYOND_2_53, 'USD', '$90,071,992,547,409.93'],
    [-BEYOND_2_53, 'KES', `-KSh${NBSP}90,071,992,547,409.93`],
    [2n ** 63n - 1n, 'USD', '$92,233,720,368,547,758.07'],
  ];
  for (const [amount, currency, text] of cases) {
    it(`${amount} ${currency} → ${text}`, () => expect(formatMinor(amount, currency)).toBe(text));
  }
});

describe('parseMinor: JSON integers', () => {
  const cases: [unknown, bigint | null][] = [
    [0, 0n],
    [-0, 0n],
    [42, 42n],
    [-42, -42n],
    [Number.MAX_SAFE_INTEGER, 9_007_199_254_740_991n],
    [Number.MAX_SAFE_INTEGER + 1, null],
    [1.5, null],
    [Number.NaN, null],
    [Infinity, null],
    ['0', 0n],
    ['42', 42n],
    ['-42', -42n],
    ['9007199254740993', BEYOND_2_53],
    ['9223372036854775807', 2n ** 63n - 1n],
    ['9223372036854775808', null],
    ['-9223372036854775808', -(2n ** 63n)],
    ['-9223372036854775809', null],
    ['', null],
    ['-', null],
    ['042', null],
    ['+42', null],
    ['4.2', null],
    ['1e3', null],
    [' 42', null],
    ['42 ', null],
    [null, null],
    [undefined, null],
    [true, null],
    [{}, null],
    [7n, 7n],
  ];
  for (const [value, expected] of cases) {
    const label =
      typeof value === 'bigint' ? `${value}n` : typeof value === 'number' ? String(value) : JSON.stringify(value);
    it(`${label} → ${expected}`, () => expect(parseMinor(value)).toBe(expected));
  }
});

describe('minorToJson', () => {
  it('is exact up to the balance cap and refuses past it', () => {
    expect(minorToJson(-123n)).toBe(-123);
    expect(minorToJson(MAX_BALANCE_MINOR)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => minorToJson(MAX_BALANCE_MINOR + 1n)).toThrow(/beyond JSON's exact integers/);
  });
});

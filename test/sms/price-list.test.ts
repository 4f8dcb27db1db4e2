// The price list (HERALD_PRICES_FILE): the shipped file is valid, every bad file stops start-up naming
// the variable and the first bad path in it, and prices follow the volume tiers at their edges.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PRICES_FILE, loadConfig } from '../../src/config.ts';
import { loadPriceList, parsePriceList, proPrice, smsPrice, type PriceList } from '../../src/platform/price-list.ts';

const shippedText = fs.readFileSync(DEFAULT_PRICES_FILE, 'utf8');
let shipped: PriceList;
let dir: string;

beforeAll(() => {
  shipped = loadPriceList(DEFAULT_PRICES_FILE);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-prices-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The shipped file as plain JSON, changed by `edit`, written out as text. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- free-form edits of parsed JSON
function variant(edit: (json: any) => void): string {
  const json = JSON.parse(shippedText);
  edit(json);
  return JSON.stringify(json, null, 2);
}

function failure(text: string): ConfigError {
  try {
    parsePriceList(text, '/etc/herald/prices.json');
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the price list was accepted');
}

describe('the shipped price list', () => {
  it('is valid and prices every currency, the four named destinations and a default', () => {
    for (const currency of ['USD', 'NGN', 'KES'] as const) {
      const lines = shipped.currencies[currency].channels.sms.lines.map((l) => l.country);
      expect(lines).toEqual(expect.arrayContaining(['US', 'GB', 'NG', 'KE', 'default']));
      expect(proPrice(shipped, currency)).not.toBeNull();
    }
    expect(shipped.rounding).toBe('half away from zero to the minor unit');
  });

  it('is what loadConfig reads by default, wherever the process runs', () => {
    const config = loadConfig({});
    expect(config.pricesFile).toBe(DEFAULT_PRICES_FILE);
    expect(config.prices).toEqual(shipped);
  });

  it('keeps prices as bigint, digits past 2^53 included', () => {
    expect(typeof smsPrice(shipped, 'USD', 'US', 0)).toBe('bigint');
    const big = parsePriceList(
      variant((j) => (j.currencies.NGN.channels.sms.lines[0].cells[0] = 1)).replace(
        /"cells": \[\n\s*1,/,
        '"cells": [\n 9007199254740993123,',
      ),
      'x',
    );
    expect(smsPrice(big, 'NGN', 'US', 0)).toBe(9007199254740993123n);
  });
});

describe('smsPrice', () => {
  it.each([
    [0, 7900n],
    [9999, 7900n],
    [10000, 7500n],
    [99999, 7500n],
    [100000, 7000n],
    [5_000_000, 7000n],
  ])('picks the tier at volume %i', (volume, price) => {
    expect(smsPrice(shipped, 'USD', 'US', volume)).toBe(price);
  });

  it('prices by destination, with the default line for any other country and for no country', () => {
    expect(smsPrice(shipped, 'NGN', 'NG', 0)).toBe(4_000_000n);
    expect(smsPrice(shipped, 'KES', 'KE', 10_000)).toBe(750_000n);
    expect(smsPrice(shipped, 'USD', 'GB', 0)).toBe(40_000n);
    expect(smsPrice(shipped, 'USD', 'FR', 0)).toBe(60_000n);
    expect(smsPrice(shipped, 'USD', null, 100_000)).toBe(54_000n);
  });
});

describe('a bad price list stops start-up', () => {
  const sms = 'currencies.USD.channels.sms';
  it.each<[string, string, () => string]>([
    ['not JSON', '', () => '{"rounding": '],
    [
      'a fractional price',
      `${sms}.lines[0].cells[1]`,
      () => variant((j) => (j.currencies.USD.channels.sms.lines[0].cells[1] = 0.5)),
    ],
    [
      'a price in exponent form',
      `${sms}.lines[1].cells[0]`,
      () => variant((j) => (j.currencies.USD.channels.sms.lines[1].cells[0] = 1e21)),
    ],
    [
      'a negative price',
      `${sms}.lines[0].cells[0]`,
      () => variant((j) => (j.currencies.USD.channels.sms.lines[0].cells[0] = -1)),
    ],
    [
      'a price as a string',
      `${sms}.lines[0].cells[0]`,
      () => variant((j) => (j.currencies.USD.channels.sms.lines[0].cells[0] = '7900')),
    ],
    ['a missing currency', 'currencies.KES', () => variant((j) => delete j.currencies.KES)],
    ['an unknown currency', 'currencies', () => variant((j) => (j.currencies.EUR = j.currencies.USD))],
    [
      'a missing sms channel',
      'currencies.NGN.channels.sms',
      () => variant((j) => delete j.currencies.NGN.channels.sms),
    ],
    [
      'a typo in a field name',
      `${sms}.tiers[0]`,
      () => variant((j) => (j.currencies.USD.channels.sms.tiers[0].maxVolumee = 1)),
    ],
    [
      'a gap between tiers',
      `${sms}.tiers[1].minVolume`,
      () => variant((j) => (j.currencies.USD.channels.sms.tiers[1].minVolume = 10001)),
    ],
    [
      'a first tier not at 0',
      `${sms}.tiers[0].minVolume`,
      () => variant((j) => (j.currencies.USD.channels.sms.tiers[0].minVolume = 1)),
    ],
    [
      'an open tier before the last',
      `${sms}.tiers[1].maxVolume`,
      () => variant((j) => (j.currencies.USD.channels.sms.tiers[1].maxVolume = null)),
    ],
    [
      'a closed last tier',
      `${sms}.tiers[2].maxVolume`,
      () => variant((j) => (j.currencies.USD.channels.sms.tiers[2].maxVolume = 1e6)),
    ],
    [
      'a negative maxVolume',
      `${sms}.tiers[0].maxVolume`,
      () => variant((j) => (j.currencies.USD.channels.sms.tiers[0].maxVolume = -5)),
    ],
    [
      'a negative minVolume on a later tier',
      `${sms}.tiers[1].minVolume`,
      () => variant((j) => (j.currencies.USD.channels.sms.tiers[1].minVolume = -5)),
    ],
    [
      'a maxVolume past 2^53',
      `${sms}.tiers[0].maxVolume`,
      () => variant((j) => (j.currencies.USD.channels.sms.tiers[0].maxVolume = 2 ** 60)),
    ],
    [
      'a line with a cell missing',
      `${sms}.lines[3].cells`,
      () => variant((j) => j.currencies.USD.channels.sms.lines[3].cells.pop()),
    ],
    ['no default line', `${sms}.lines`, () => variant((j) => j.currencies.USD.channels.sms.lines.pop())],
    [
      'a country twice',
      `${sms}.lines[1].country`,
      () => variant((j) => (j.currencies.USD.channels.sms.lines[1].country = 'US')),
    ],
    [
      'a country that is not alpha-2',
      `${sms}.lines[0].country`,
      () => variant((j) => (j.currencies.USD.channels.sms.lines[0].country = 'USA')),
    ],
    [
      'a fractional Pro month',
      'currencies.NGN.pro.monthlyMinor',
      () => variant((j) => (j.currencies.NGN.pro.monthlyMinor = 30000.5)),
    ],
    [
      'a Pro unit price missing',
      'currencies.KES.pro.unitPriceMicro',
      () => variant((j) => delete j.currencies.KES.pro.unitPriceMicro),
    ],
    ['another rounding rule', 'rounding', () => variant((j) => (j.rounding = 'banker'))],
  ])('names HERALD_PRICES_FILE and the path for %s', (_case, where, text) => {
    const error = failure(text());
    expect(error.message).toContain('HERALD_PRICES_FILE=');
    expect(error.message).toContain('accepts');
    if (where !== '') expect(error.message).toContain(`at ${where}:`);
  });

  it('reports only the first bad path when there are several', () => {
    const error = failure(
      variant((j) => {
        j.currencies.USD.channels.sms.lines[0].cells[0] = 1.5;
        j.currencies.KES.channels.sms.lines[0].cells[0] = 1.5;
      }),
    );
    expect(error.message).toContain(`${sms}.lines[0].cells[0]`);
    expect(error.message).not.toContain('currencies.KES');
  });

  it('names the variable for a file that cannot be read, through loadConfig', () => {
    expect(() => loadConfig({ HERALD_PRICES_FILE: path.join(dir, 'missing.json') })).toThrow(
      /HERALD_PRICES_FILE=.*missing\.json.*cannot be read/,
    );
  });

  it('loads an operator file named by HERALD_PRICES_FILE', () => {
    const file = path.join(dir, 'cheap.json');
    fs.writeFileSync(
      file,
      variant((j) => (j.currencies.USD.channels.sms.lines[0].cells = [1, 2, 3])),
    );
    expect(smsPrice(loadConfig({ HERALD_PRICES_FILE: file }).prices, 'USD', 'US', 10_000)).toBe(2n);
  });
});

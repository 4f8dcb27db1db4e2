// platform/plans.ts: the shipped plans file cell by cell, every per-plan number through the function
// that checks it, read from the loaded table; and the loader, which refuses a bad file naming the
// file and the field.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config-error.ts';
import type { TeamPlan } from '../../src/db/schema.ts';
import {
  contactBookLimit,
  dailySendLimit,
  defaultApiRateLimit,
  domainLimit,
  includedUnits,
  limitReached,
  loadPlanLimits,
  memberLimit,
  monthlySendLimit,
  parsePlanLimits,
  setPlanLimits,
  SHIPPED_PLANS_FILE,
  TEAM_PLANS,
  webhookLimit,
  type PlanTable,
} from '../../src/platform/plans.ts';

/** The shipped plans file as JSON a test may break: any field changed, added or removed. */
type PlansJson = { free: Record<string, unknown>; pro: Record<string, unknown> } & Record<string, unknown>;

const checks = {
  dailySendLimit,
  monthlySendLimit,
  webhookLimit,
  domainLimit,
  contactBookLimit,
  memberLimit,
  defaultApiRateLimit,
  includedUnits,
} satisfies Record<string, (plan: TeamPlan) => number | null>;

// The shipped figures (config/plans.json). null: no limit.
const expected: Record<keyof typeof checks, Record<TeamPlan, number | null>> = {
  dailySendLimit: { free: 100, pro: 50_000 },
  monthlySendLimit: { free: 3_000, pro: null },
  webhookLimit: { free: 5, pro: 50 },
  domainLimit: { free: 3, pro: null },
  contactBookLimit: { free: 3, pro: null },
  memberLimit: { free: 5, pro: null },
  defaultApiRateLimit: { free: 10, pro: 10 },
  includedUnits: { free: null, pro: 10_000 },
};

const shipped = loadPlanLimits(SHIPPED_PLANS_FILE);
// Files of a worker share modules (isolate: false): whatever a test sets, the shipped table is back after it.
afterEach(() => setPlanLimits(shipped));

describe('per-plan numbers of the shipped file', () => {
  it('has exactly the plans free and pro', () => expect(Object.keys(shipped).sort()).toEqual([...TEAM_PLANS].sort()));
  for (const [name, check] of Object.entries(checks) as [keyof typeof checks, (plan: TeamPlan) => number | null][]) {
    for (const plan of TEAM_PLANS) {
      it(`${name}(${plan}) → ${expected[name][plan]}`, () => {
        setPlanLimits(shipped);
        expect(check(plan)).toBe(expected[name][plan]);
      });
    }
  }
});

describe('the readers read the loaded table', () => {
  it('every function answers from the table set last, not from a copy of its own', () => {
    const other: PlanTable = {
      free: { ...shipped.free, dailySends: 7, monthlySends: 70, webhooks: 1, apiRateLimit: 3 },
      pro: { ...shipped.pro, dailySends: 9, includedUnits: 0, members: 2, domains: 4, contactBooks: 5 },
    };
    setPlanLimits(other);
    expect([
      dailySendLimit('free'),
      monthlySendLimit('free'),
      webhookLimit('free'),
      defaultApiRateLimit('free'),
    ]).toEqual([7, 70, 1, 3]);
    expect([dailySendLimit('pro'), includedUnits('pro'), memberLimit('pro'), domainLimit('pro')]).toEqual([9, 0, 2, 4]);
    expect(contactBookLimit('pro')).toBe(5);
  });
});

const FILE = '/x/plans.json';
const shippedJson = () => JSON.parse(fs.readFileSync(SHIPPED_PLANS_FILE, 'utf8')) as PlansJson;

function refusal(text: string): string {
  try {
    parsePlanLimits(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the plans file was accepted');
}

/** The shipped file with one change made by `change`, as the loader sees it. */
function refusalOf(change: (plans: PlansJson) => void): string {
  const plans = shippedJson();
  change(plans);
  return refusal(JSON.stringify(plans));
}

describe('loadPlanLimits refuses a bad file, naming the file and the field', () => {
  it.each<[string, (plans: PlansJson) => void, string]>([
    ['a negative limit', (p) => (p.pro.dailySends = -1), 'pro.dailySends must be a whole number ≥ 0 or null'],
    ['a fraction', (p) => (p.free.monthlySends = 2.5), 'free.monthlySends must be a whole number ≥ 0 or null'],
    ['a string', (p) => (p.pro.webhooks = '50'), 'pro.webhooks must be a whole number ≥ 0 or null'],
    ['a missing field', (p) => Reflect.deleteProperty(p.free, 'members'), 'free.members is missing'],
    ['a misspelt field', (p) => (p.pro.dailySend = 5), 'pro.dailySend is not a field of a plan'],
    ['a third plan', (p) => (p.gold = p.pro), 'gold is not a plan (the plans are free and pro)'],
    ['a missing plan', (p) => Reflect.deleteProperty(p, 'pro'), 'pro is missing'],
    ['a plan that is not an object', (p) => Object.assign(p, { free: 5 }), 'free must be an object'],
    ['no rate limit', (p) => (p.free.apiRateLimit = null), 'free.apiRateLimit must be a whole number from 1 to'],
    ['a zero rate limit', (p) => (p.pro.apiRateLimit = 0), 'pro.apiRateLimit must be a whole number from 1 to'],
    ['an unsafe integer', (p) => (p.pro.includedUnits = 2 ** 60), 'pro.includedUnits must be a whole number'],
  ])('%s', (_case, change, message) => {
    const text = refusalOf(change);
    expect(text).toContain('HERALD_PLANS_FILE');
    expect(text).toContain(FILE);
    expect(text).toContain(message);
  });

  it('a file that is not JSON, or not an object', () => {
    expect(refusal('{"free": ')).toMatch(/HERALD_PLANS_FILE="\/x\/plans\.json".*not JSON/);
    expect(refusal('[]')).toMatch(/HERALD_PLANS_FILE="\/x\/plans\.json".*\(the top level\) must be an object/);
  });

  it('a file that cannot be read', () => {
    expect(() => loadPlanLimits('/nonexistent/plans.json')).toThrow(
      /HERALD_PLANS_FILE="\/nonexistent\/plans\.json".*cannot be read/,
    );
  });

  it('takes null wherever a limit may be absent, and reads an operator file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-plans-'));
    const file = path.join(dir, 'plans.json');
    const plans = shippedJson();
    for (const field of [
      'dailySends',
      'monthlySends',
      'webhooks',
      'domains',
      'contactBooks',
      'members',
      'includedUnits',
    ])
      plans.free[field] = null;
    plans.pro.dailySends = 123;
    fs.writeFileSync(file, JSON.stringify(plans));
    const table = loadPlanLimits(file);
    expect(table.free).toEqual({ ...plans.free });
    expect(table.pro.dailySends).toBe(123);
  });
});

describe('limitReached', () => {
  const cases: [number, number | null, boolean][] = [
    [0, 5, false],
    [4, 5, false],
    [5, 5, true],
    [6, 5, true],
    [0, 0, true],
    [1_000_000, null, false],
  ];
  for (const [used, limit, reached] of cases) {
    it(`${used} used of ${limit} → ${reached}`, () => expect(limitReached(used, limit)).toBe(reached));
  }
});

// platform/plans.ts cell by cell: every per-plan number through the function that checks it.
import { describe, expect, it } from 'vitest';
import type { TeamPlan } from '../../src/db/schema.ts';
import {
  contactBookLimit,
  dailySendLimit,
  defaultApiRateLimit,
  domainLimit,
  includedUnits,
  limitReached,
  memberLimit,
  monthlySendLimit,
  PLAN_LIMITS,
  TEAM_PLANS,
  webhookLimit,
} from '../../src/platform/plans.ts';

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

// null: no limit.
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

describe('per-plan numbers', () => {
  it('every plan has a row', () => expect(Object.keys(PLAN_LIMITS).sort()).toEqual([...TEAM_PLANS].sort()));
  for (const [name, check] of Object.entries(checks) as [keyof typeof checks, (plan: TeamPlan) => number | null][]) {
    for (const plan of TEAM_PLANS) {
      it(`${name}(${plan}) → ${expected[name][plan]}`, () => expect(check(plan)).toBe(expected[name][plan]));
    }
  }
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

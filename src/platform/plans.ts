// Every per-plan number in one table. The contract shows none of them ("numeric daily and monthly send
// quotas and webhook counts per plan: not shown", "apiRateLimit … its value is not shown"); they are
// the operator's: HERALD_PLANS_FILE (shipped: config/plans.json), read and checked once at start. null
// means no limit. Each check reads the table through its own function, so a caller names the limit
// it enforces and the usage read reports the same numbers.
//
// The loaded table is held here and set once per process by buildDeps (setPlanLimits(config.plans)),
// rather than threaded through deps: the readers sit deep in code that has no deps at hand (the send
// reservations of emails/limits.ts, the usage read, webhook creation, team creation), every process
// builds its deps from the config it runs with before it serves anything, and a test app built with
// other `plans` in its config gets them the same way. Until a process sets it, the shipped file
// applies (what a module-level read in a test or a script sees), read from that same file.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ConfigError } from '../config-error.ts';
import type { TeamPlan } from '../db/schema.ts';

export interface PlanLimits {
  /** Recipients per UTC day (every recipient of every email counts once; suppressed ones do not). */
  dailySends: number | null;
  /** Recipients per UTC calendar month. */
  monthlySends: number | null;
  webhooks: number | null;
  /** Sending domains. Not enforced yet: the usage read reports it. */
  domains: number | null;
  /** Contact books. Not enforced yet: the usage read reports it. */
  contactBooks: number | null;
  /** Team members. Not enforced yet: the usage read reports it. */
  members: number | null;
  /** Requests per second a new team's keys may make (the team's `apiRateLimit`, changed by the operator). */
  apiRateLimit: number;
  /** Units included in each Pro month before overage is charged; null where units do not apply. */
  includedUnits: number | null;
}

export type PlanTable = Readonly<Record<TeamPlan, Readonly<PlanLimits>>>;

export { TEAM_PLANS } from './team-plans.ts';

const VARIABLE = 'HERALD_PLANS_FILE';

/** config/plans.json: today's free and pro figures, HERALD_PLANS_FILE's default. */
export const SHIPPED_PLANS_FILE = fileURLToPath(new URL('../../config/plans.json', import.meta.url));

/** The admin API's bounds of a team's apiRateLimit (admin/schemas.ts). */
export const API_RATE_LIMIT_MAX = 1_000_000;

const LIMIT_RULE = 'must be a whole number ≥ 0 or null';
const RATE_RULE = `must be a whole number from 1 to ${API_RATE_LIMIT_MAX}`;

/** A whole number in [min, max]; every refusal says `rule`. JSON has no integers: 2.0 reads as 2. */
const whole = (rule: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? `is missing (${rule})` : rule) })
    .int({ error: rule })
    .min(min, { error: rule })
    .max(max, { error: rule });

const limit = whole(LIMIT_RULE, 0).nullable();

/** An object whose unknown keys (a misspelt field, a third plan) are named by the issue path (see parsePlanLimits). */
const strictObject = <Shape extends z.core.$ZodLooseShape>(shape: Shape, unknownKey: string, what: string) =>
  z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') return unknownKey;
      return issue.input === undefined ? `is missing (${what})` : `must be ${what}`;
    },
  });

const planSchema = strictObject(
  {
    dailySends: limit,
    monthlySends: limit,
    webhooks: limit,
    domains: limit,
    contactBooks: limit,
    members: limit,
    apiRateLimit: whole(RATE_RULE, 1, API_RATE_LIMIT_MAX),
    includedUnits: limit,
  },
  'is not a field of a plan',
  "an object of the plan's limits",
) satisfies z.ZodType<PlanLimits>;

const plansSchema = strictObject(
  { $comment: z.string().optional(), free: planSchema, pro: planSchema },
  'is not a plan (the plans are free and pro)',
  'an object with the plans free and pro',
);

/** Reads and checks the file; throws ConfigError naming HERALD_PLANS_FILE, the file and the first bad field. */
export function loadPlanLimits(file: string): PlanTable {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(VARIABLE, 'the path of a readable JSON plans file (the file cannot be read)', file);
  }
  return parsePlanLimits(text, file);
}

export function parsePlanLimits(text: string, file: string): PlanTable {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ConfigError(VARIABLE, `a JSON plans file; the file is not JSON (${detail})`, file);
  }
  const result = plansSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    // An unknown key is reported on its object: name the key itself (`pro.dailySend`, `gold`).
    const keys = issue.code === 'unrecognized_keys' ? [issue.keys[0]!] : [];
    const where = [...issue.path, ...keys].map(String).join('.') || '(the top level)';
    throw new ConfigError(
      VARIABLE,
      `a JSON file of the plans free and pro shaped like config/plans.json; ${where} ${issue.message}`,
      file,
    );
  }
  const { free, pro } = result.data;
  return { free, pro };
}

let loaded: PlanTable | null = null;

/** The operator's table (config.plans), set by buildDeps before anything is served. */
export function setPlanLimits(table: PlanTable): void {
  loaded = table;
}

/** What `plan` allows, from the loaded table. */
export function planLimits(plan: TeamPlan): Readonly<PlanLimits> {
  loaded ??= loadPlanLimits(SHIPPED_PLANS_FILE);
  return loaded[plan];
}

export const dailySendLimit = (plan: TeamPlan): number | null => planLimits(plan).dailySends;
export const monthlySendLimit = (plan: TeamPlan): number | null => planLimits(plan).monthlySends;
export const webhookLimit = (plan: TeamPlan): number | null => planLimits(plan).webhooks;
export const domainLimit = (plan: TeamPlan): number | null => planLimits(plan).domains;
export const contactBookLimit = (plan: TeamPlan): number | null => planLimits(plan).contactBooks;
export const memberLimit = (plan: TeamPlan): number | null => planLimits(plan).members;
export const defaultApiRateLimit = (plan: TeamPlan): number => planLimits(plan).apiRateLimit;
export const includedUnits = (plan: TeamPlan): number | null => planLimits(plan).includedUnits;

/** True when `used` has reached the limit, so one more is refused (null: never). */
export function limitReached(used: number, limit: number | null): boolean {
  return limit !== null && used >= limit;
}

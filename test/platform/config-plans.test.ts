// HERALD_PLANS_FILE and HERALD_DEFAULT_PLAN through the real configuration loading: the shipped
// plans by default, an operator's file read at start, a bad file or plan stopping start naming it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS_FILE, loadConfig } from '../../src/config.ts';
import { configFailure } from '../support/config-failure.ts';

/** The shipped plans file as JSON a test may break: any field changed, added or removed. */
type PlansJson = { free: Record<string, unknown>; pro: Record<string, unknown> } & Record<string, unknown>;

const SECRET = 'a-long-enough-master-secret-0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-config-plans-'));

function plansFile(name: string, change: (plans: PlansJson) => void): string {
  const plans = JSON.parse(fs.readFileSync(DEFAULT_PLANS_FILE, 'utf8')) as PlansJson;
  change(plans);
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(plans));
  return file;
}

describe('HERALD_PLANS_FILE', () => {
  it("defaults to the shipped config/plans.json, today's free and pro figures", () => {
    const config = loadConfig({});
    expect(config.plansFile).toBe(DEFAULT_PLANS_FILE);
    expect(config.plans.free).toMatchObject({ dailySends: 100, monthlySends: 3_000, webhooks: 5, apiRateLimit: 10 });
    expect(config.plans.pro).toMatchObject({ dailySends: 50_000, monthlySends: null, includedUnits: 10_000 });
  });

  it("reads the operator's file into the config", () => {
    const file = plansFile('pro-25.json', (p) => (p.pro.dailySends = 25));
    const config = loadConfig({ HERALD_PLANS_FILE: file });
    expect(config.plansFile).toBe(file);
    expect(config.plans.pro.dailySends).toBe(25);
    expect(config.plans.free.dailySends).toBe(100);
  });

  it('a bad value stops start naming the variable, the file and the field', () => {
    const file = plansFile('bad.json', (p) => (p.pro.dailySends = 'lots'));
    const error = configFailure({ HERALD_PLANS_FILE: file });
    expect(error.message).toContain(`HERALD_PLANS_FILE=${JSON.stringify(file)}`);
    expect(error.message).toContain('pro.dailySends must be a whole number ≥ 0 or null');
  });

  it('a file that is not there stops start naming it', () => {
    expect(configFailure({ HERALD_PLANS_FILE: path.join(dir, 'missing.json') }).message).toMatch(
      /HERALD_PLANS_FILE=.*missing\.json.*cannot be read/,
    );
  });
});

describe('HERALD_DEFAULT_PLAN', () => {
  it('unset: new teams get free, and the first team of an embedded start gets pro', () => {
    expect(loadConfig({})).toMatchObject({ defaultPlan: 'free', firstTeamPlan: 'pro' });
  });

  it('unset on a PostgreSQL server: free for every team', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/herald', HERALD_SECRET: SECRET });
    expect(config).toMatchObject({ defaultPlan: 'free', firstTeamPlan: 'free' });
  });

  it('set: every new team gets it, the first one of an embedded start too', () => {
    expect(loadConfig({ HERALD_DEFAULT_PLAN: 'free' })).toMatchObject({ defaultPlan: 'free', firstTeamPlan: 'free' });
    expect(loadConfig({ HERALD_DEFAULT_PLAN: ' pro ' })).toMatchObject({ defaultPlan: 'pro', firstTeamPlan: 'pro' });
  });

  it('a plan that is not free or pro stops start naming the variable', () => {
    const error = configFailure({ HERALD_DEFAULT_PLAN: 'gold' });
    expect(error.message).toBe('HERALD_DEFAULT_PLAN="gold" is not valid: HERALD_DEFAULT_PLAN accepts one of free, pro');
  });
});

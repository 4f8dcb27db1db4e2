// The plan of new teams (HERALD_DEFAULT_PLAN) and `herald admin teams update --plan`: a team created
// without a plan gets the configured default, the first team of an embedded start gets pro unless
// the variable says otherwise, and the CLI command changes a team's plan through PATCH.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminCommands, type AdminRequest } from '../../src/admin/cli-commands.ts';
import { loadConfig } from '../../src/config.ts';
import { dailySendLimit } from '../../src/platform/plans.ts';
import { applyMigrations, bootstrapAndGreet, openRuntime } from '../../src/runtime.ts';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';
import { bearer, createTeam } from '../support/factory.ts';

let plain: TestApp;
let proByDefault: TestApp;
beforeAll(async () => {
  plain = await createTestApp();
  proByDefault = await createTestApp({ config: { defaultPlan: 'pro' } });
});
afterAll(async () => {
  await plain.close();
  await proByDefault.close();
});

const admin = (t: TestApp, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    ...(payload ? { payload } : {}),
  });

describe('HERALD_DEFAULT_PLAN: the plan of a team created without one', () => {
  it('unset: free', async () => {
    const created = await admin(plain, 'POST', '/teams', { name: 'No plan given' });
    expect(created.statusCode).toBe(201);
    expect(created.json().plan).toBe('free');
  });

  it('pro: a team created without a plan is pro, one created with a plan keeps it', async () => {
    const created = await admin(proByDefault, 'POST', '/teams', { name: 'Default pro' });
    expect(created.statusCode).toBe(201);
    expect(created.json().plan).toBe('pro');
    expect((await admin(proByDefault, 'GET', `/teams/${created.json().id}`)).json().plan).toBe('pro');
    const free = await admin(proByDefault, 'POST', '/teams', { name: 'Asked for free', plan: 'free' });
    expect(free.json().plan).toBe('free');
  });
});

// Two fresh embedded databases, each migrated from nothing: seconds each on a loaded machine.
describe('the first team of an embedded start', { timeout: 120_000 }, () => {
  async function firstStartPlan(env: Record<string, string>): Promise<string> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-first-plan-'));
    const runtime = await openRuntime(loadConfig({ HERALD_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }), {
      logger: pino({ level: 'silent' }),
    });
    // The banner goes to stdout; kept out of the test's output.
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await applyMigrations(runtime);
      await bootstrapAndGreet(runtime);
      expect(write.mock.calls.join('')).toMatch(/Team 1 \((free|pro) plan\)/);
      const teams = await runtime.deps.db.selectFrom('teams').select(['id', 'plan']).execute();
      expect(teams).toHaveLength(1);
      return teams[0]!.plan;
    } finally {
      write.mockRestore();
      await runtime.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it('is pro when HERALD_DEFAULT_PLAN is unset, and HERALD_DEFAULT_PLAN when set', async () => {
    expect(await firstStartPlan({})).toBe('pro');
    expect(await firstStartPlan({ HERALD_DEFAULT_PLAN: 'free' })).toBe('free');
  });
});

describe('herald admin teams update --plan', () => {
  function request(values: Record<string, string>, positionals: string[]): AdminRequest {
    const command = adminCommands.find((c) => c.resource === 'teams' && c.action === 'update')!;
    return command.toRequest(values, positionals) as AdminRequest;
  }

  it('maps to PATCH /teams/{id} with the plan, and the plan changes with its limits', async () => {
    const team = await createTeam(plain.app);
    const usageLimit = async () =>
      (await plain.app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: bearer(team.key) })).json()
        .sending.daily.limit;
    expect(await usageLimit()).toBe(dailySendLimit('free'));

    const toPro = request({ plan: 'pro' }, [String(team.id)]);
    expect(toPro).toEqual({ method: 'PATCH', path: `/teams/${team.id}`, body: { plan: 'pro' } });
    const changed = await admin(plain, 'PATCH', toPro.path, toPro.body);
    expect(changed.statusCode).toBe(200);
    expect(changed.json().plan).toBe('pro');
    expect((await admin(plain, 'GET', `/teams/${team.id}`)).json().plan).toBe('pro');
    expect(await usageLimit()).toBe(dailySendLimit('pro'));

    const back = request({ team: String(team.id), plan: 'free' }, []);
    expect(back.body).toEqual({ plan: 'free' });
    expect((await admin(plain, 'PATCH', back.path, back.body)).json().plan).toBe('free');
  });

  it('refuses a plan that is not free or pro before any request', () => {
    expect(() => request({ plan: 'gold' }, ['1'])).toThrow('--plan must be free or pro');
    expect(() =>
      adminCommands
        .find((c) => c.resource === 'teams' && c.action === 'create')!
        .toRequest({ name: 'x', plan: 'Pro' }, []),
    ).toThrow('--plan must be free or pro');
  });
});

// HERALD_PLANS_FILE is what a send is checked against: with an operator's file giving pro 7 emails a
// day, a pro team sends exactly 7 recipients and the 8th is refused (429, nothing stored), and the
// usage read reports the same limit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLANS_FILE, loadConfig } from '../../src/config.ts';
import { setPlanLimits } from '../../src/platform/plans.ts';
import { bearer } from '../support/factory.ts';
import { emails, startEmailHarness, storedEmailCount, type EmailHarness } from './support.ts';

const PRO_DAILY = 7;

let h: EmailHarness;
beforeAll(async () => {
  const plans = JSON.parse(fs.readFileSync(DEFAULT_PLANS_FILE, 'utf8'));
  plans.pro.dailySends = PRO_DAILY;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-plans-quota-')), 'plans.json');
  fs.writeFileSync(file, JSON.stringify(plans));
  // Through the configuration loading, as a start reads it.
  h = await startEmailHarness({ config: { plans: loadConfig({ HERALD_PLANS_FILE: file }).plans } });
});
afterAll(async () => {
  await h.close();
  // Files of a worker share modules (isolate: false): the next file starts from the shipped plans.
  setPlanLimits(loadConfig({}).plans);
});

const addresses = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);

describe("an operator's plans file", () => {
  it('refuses a pro team at exactly the configured daily limit', async () => {
    const team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    const base = { from: team.from(), subject: 'Plans file', text: 'x' };
    expect((await api.send({ ...base, to: addresses(4, 'a') })).statusCode).toBe(200);
    expect((await api.send({ ...base, to: addresses(3, 'b') })).statusCode).toBe(200);
    const over = await api.send({ ...base, to: 'one-more@example.com' });
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toMatchObject({
      code: 'RATE_LIMITED',
      message: `Daily send limit reached: the pro plan allows ${PRO_DAILY} emails a day`,
    });
    expect(await storedEmailCount(h.t, team.id)).toBe(2);

    const usage = await h.app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: bearer(team.key) });
    expect(usage.json().sending.daily).toMatchObject({ used: PRO_DAILY, limit: PRO_DAILY, unlimited: false });
  });

  it('refuses at once a send bigger than the whole configured day', async () => {
    const team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    const response = await api.send({
      from: team.from(),
      subject: 'Big',
      text: 'x',
      to: addresses(PRO_DAILY + 1, 'c'),
    });
    expect(response.statusCode).toBe(429);
    expect(await storedEmailCount(h.t, team.id)).toBe(0);
  });

  it('leaves the plans the file did not change as shipped', async () => {
    const team = await h.team({ plan: 'free' });
    const usage = await h.app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: bearer(team.key) });
    expect(usage.json().sending.daily.limit).toBe(100);
  });
});

// Accounts: API keys minted, listed and deleted (shown once, stored as a hash with a hint), whoami
// describing the calling key, and first-start bootstrap leaving a database that has a team alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bootstrapFirstTeam,
  createApiKey,
  deleteApiKey,
  getTeam,
  listApiKeys,
  listMembers,
} from '../../src/accounts/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';

let t: TestApp;
let team: TestTeam;
beforeAll(async () => {
  t = await createTestApp();
  team = await createTeam(t.app);
});
afterAll(() => t.close());

const whoami = (key: string) => t.app.inject({ method: 'GET', url: '/api/v1/whoami', headers: bearer(key) });

describe('whoami', () => {
  it('describes the key, with the domain a sending key is limited to', async () => {
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/v1/domains',
      headers: bearer(team.key),
      payload: { name: 'accounts-whoami.example.com', region: 'us-east-1' },
    });
    const domainId: number = added.json().id;
    const made = await team.makeKey('sending', { domainId });
    expect((await whoami(made.key)).json()).toEqual({
      teamId: team.id,
      keyId: made.id,
      kind: 'sending',
      domainId,
      apiRateLimit: 100_000,
    });
  });
});

describe('API keys', () => {
  it('a minted key works, is listed by its hint only, and stops working once deleted', async () => {
    const other = await createTeam(t.app);
    const foreign = await createApiKey(t.deps.db, t.deps.secrets, other.id, { kind: 'full' });
    // Another team's key id answers as a missing one.
    expect(await deleteApiKey(t.deps.db, team.id, foreign.id)).toBe(false);

    const made = await createApiKey(t.deps.db, t.deps.secrets, team.id, { kind: 'readonly', name: 'Reader' });
    expect(made.key).toMatch(/^hk_[A-Za-z0-9_-]{43}$/);
    expect((await whoami(made.key)).json()).toMatchObject({ keyId: made.id, kind: 'readonly' });

    const listed = (await listApiKeys(t.deps.db, team.id)).find((key) => key.id === made.id);
    expect(listed).toMatchObject({ kind: 'readonly', name: 'Reader', key_hint: `hk_…${made.key.slice(-4)}` });
    expect(JSON.stringify(listed)).not.toContain(made.key);

    expect(await deleteApiKey(t.deps.db, team.id, made.id)).toBe(true);
    // This process's principal cache hears of it through the deletion's NOTIFY (announceAuthChange).
    await expect.poll(async () => (await whoami(made.key)).statusCode, { timeout: 5000 }).toBe(401);
    expect(await deleteApiKey(t.deps.db, team.id, made.id)).toBe(false);
  });
});

describe('bootstrap', () => {
  it('leaves a database that already has a team alone', async () => {
    const before = await listMembers(t.deps.db, team.id);
    expect(await bootstrapFirstTeam(t.deps.db, t.deps.secrets, t.deps.clock.now())).toBeNull();
    expect(await listMembers(t.deps.db, team.id)).toEqual(before);
    expect(await getTeam(t.deps.db, team.id)).toBeDefined();
  });
});

// The dispatcher's claim against the real database, with no dispatcher running: each webhook gets at
// most its cap of calls in flight across claims (so one slow endpoint cannot take every slot), the
// rest go to other webhooks, PAUSED webhooks' calls wait, and an expired lease makes a call due again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDueCalls, releaseExpiredCalls } from '../../src/webhooks/dispatch-queries.ts';
import type { SendingTeam } from '../emails/support.ts';
import { createWebhook, startWebhookHarness, type WebhookHarness } from './support.ts';

let w: WebhookHarness;
let team: SendingTeam;

beforeAll(async () => {
  w = await startWebhookHarness({ dispatch: false });
  team = await w.h.team({ plan: 'pro' });
});
afterAll(async () => w?.close());

describe('claimDueCalls', () => {
  it('caps calls in flight per webhook and serves other webhooks', async () => {
    const slow = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const fast = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const paused = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    for (let i = 0; i < 5; i++) await w.request(team.key, 'POST', `/v1/webhooks/${slow.id}/test`);
    for (let i = 0; i < 2; i++) await w.request(team.key, 'POST', `/v1/webhooks/${fast.id}/test`);
    await w.request(team.key, 'POST', `/v1/webhooks/${paused.id}/test`);
    await w.request(team.key, 'POST', `/v1/webhooks/${paused.id}/status`, { status: 'PAUSED' });
    const db = w.h.t.deps.db;
    const now = w.h.t.clock.now();
    const lease = new Date(now.getTime() + 60_000);
    const mine = (calls: { webhook_id: string }[], id: string) => calls.filter((c) => c.webhook_id === id).length;
    // The claim is global: other test files of this worker may have left due calls of their own teams.
    const ours = <C extends { webhook_id: string }>(calls: C[]) =>
      calls.filter((c) => [slow.id, fast.id, paused.id].includes(c.webhook_id));

    const first = await claimDueCalls(db, now, lease, 100, 3);
    expect(mine(first, slow.id)).toBe(3);
    expect(mine(first, fast.id)).toBe(2);
    expect(mine(first, paused.id)).toBe(0);
    expect(ours(first).every((c) => c.attempt === 1)).toBe(true);
    // The slow webhook still holds 3 in flight: nothing more of it until one finishes.
    expect(mine(await claimDueCalls(db, now, lease, 100, 3), slow.id)).toBe(0);

    // Its worker died: once the lease is over the calls are due again and claimed.
    const later = new Date(lease.getTime() + 1);
    expect(await releaseExpiredCalls(db, later)).toBeGreaterThanOrEqual(5);
    const again = await claimDueCalls(db, later, new Date(later.getTime() + 60_000), 100, 3);
    expect(mine(again, slow.id)).toBe(3);
    expect(again.filter((c) => c.webhook_id === slow.id).every((c) => c.attempt <= 2)).toBe(true);
  });
});

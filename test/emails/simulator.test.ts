// Simulator addresses (simulator.herald.test): each kind's events and webhooks through the real send
// and delivery path, nothing reaching the relay, nothing on the suppression list, no quota used, no
// daily counter moved; an unknown kind refused; the built-in domain reaches them too.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journeyWebhook } from '../journeys/support.ts';
import { emailJson, latestStatus, startRelayDelivery, waitForStatus, type RelayDelivery } from './delivery-support.ts';
import { emails, type EmailHarness, type SendingTeam } from './support.ts';

let d: RelayDelivery;
let h: EmailHarness;
let team: SendingTeam;
beforeAll(async () => {
  d = await startRelayDelivery();
  ({ h, team } = d);
}, 120_000);
afterAll(() => d.close());

const at = (kind: string) => `${kind}+${Math.random().toString(36).slice(2, 8)}@simulator.herald.test`;
const statuses = async (id: string) => (await emailJson(h, team.key, id)).emailEvents.map((e) => e.status);
const send = (to: string | string[], from = team.from()) =>
  emails(h.app, team.key).sent({ from, to, subject: 'Simulated', html: '<p>Hi</p>' });

async function counters() {
  const { rows } = await sql<{ usage: number; daily: number; suppressed: number }>`SELECT
      (SELECT coalesce(sum(transactional + marketing), 0)::int FROM team_daily_usage WHERE team_id = ${team.id}) AS usage,
      (SELECT coalesce(sum(sent + delivered + bounced + complained), 0)::int FROM email_daily_stats WHERE team_id = ${team.id}) AS daily,
      (SELECT count(*)::int FROM suppressions WHERE team_id = ${team.id}) AS suppressed`.execute(h.t.deps.db);
  return rows[0]!;
}

describe('simulator addresses', () => {
  it('delivers, bounces, complains and suppresses as each address says, with webhooks, touching nothing real', async () => {
    const webhook = await journeyWebhook(h, team.id, ['email.delivered', 'email.bounced', 'email.complained']);
    const before = await counters();
    const delivered = await send(at('delivered'));
    const bounced = await send(at('bounced'));
    const soft = await send(at('soft-bounced'));
    const complained = await send(at('complained'));
    const suppressed = await send(at('suppressed'));

    await waitForStatus(h, delivered, 'DELIVERED');
    expect(await statuses(delivered)).toEqual(['QUEUED', 'DELIVERED']);
    await waitForStatus(h, bounced, 'BOUNCED');
    const hard = (await emailJson(h, team.key, bounced)).emailEvents.find((e) => e.status === 'BOUNCED')!;
    expect(hard.data).toMatchObject({ responseCode: 550, bounceType: 'hard', status: '5.1.1' });
    await waitForStatus(h, soft, 'BOUNCED');
    const full = (await emailJson(h, team.key, soft)).emailEvents.find((e) => e.status === 'BOUNCED')!;
    expect(full.data).toMatchObject({ responseCode: 552, bounceType: 'soft' });
    await waitForStatus(h, complained, 'COMPLAINED');
    expect(await statuses(complained)).toEqual(['QUEUED', 'DELIVERED', 'COMPLAINED']);
    expect(await latestStatus(h, suppressed)).toBe('SUPPRESSED');
    const events = (await emailJson(h, team.key, suppressed)).emailEvents;
    expect(events).toEqual([
      expect.objectContaining({ status: 'SUPPRESSED', data: expect.objectContaining({ reason: 'simulated' }) }),
    ]);

    // Webhooks as for real mail.
    expect((await webhook('email.delivered')).map((p) => p.emailId)).toEqual(
      expect.arrayContaining([delivered, complained]),
    );
    expect((await webhook('email.bounced')).map((p) => p.emailId).sort()).toEqual([bounced, soft].sort());
    expect((await webhook('email.complained')).map((p) => p.emailId)).toEqual([complained]);
    // Nothing left the machine, nothing was suppressed, counted or charged to the quota.
    for (const id of [delivered, bounced, soft, complained]) expect(d.messagesOf(id)).toHaveLength(0);
    expect(await counters()).toEqual(before);
    // A hard-bounced simulator address can be sent to again.
    expect(await latestStatus(h, await send(at('bounced')))).toBe('QUEUED');
  });

  it('delayed@ is deferred once, then delivered', async () => {
    const id = await send(at('delayed'));
    await expect.poll(() => statuses(id), { timeout: 10_000, interval: 20 }).toContain('DELIVERY_DELAYED');
    h.t.clock.advance(7 * 60_000);
    d.runner.wake();
    await waitForStatus(h, id, 'DELIVERED');
    expect(await statuses(id)).toEqual(['QUEUED', 'DELIVERY_DELAYED', 'DELIVERED']);
  });

  it('sends a real recipient and a simulator address of one email each their own way', async () => {
    const real = `real-${Date.now()}@example.test`;
    const id = await send([real, at('delivered')]);
    await waitForStatus(h, id, 'SENT');
    expect(d.messagesOf(id).map((m) => m.envelope.to)).toEqual([[real]]);
  });

  it('refuses an address of the simulator that simulates nothing, naming the choices', async () => {
    const response = await emails(h.app, team.key).send({
      from: team.from(),
      to: 'nobody@simulator.herald.test',
      subject: 'x',
      text: 'x',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(
      /^to: nobody@simulator\.herald\.test simulates nothing; .*delivered@/,
    );
  });

  it("reaches the simulator from Herald's own domain, which otherwise reaches only members", async () => {
    const id = await send(at('delivered'), `Herald <onboarding@${h.t.deps.config.mailDomain}>`);
    await waitForStatus(h, id, 'DELIVERED');
  });
});

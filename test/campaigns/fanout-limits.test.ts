// The fan-out at its limits: the plan's quota (a pause until the day turns, one notice, then on by
// itself) and campaign mail's own delivery lane, which never holds transactional mail back.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bulkDeliveryQueue, emailDeliveryQueue } from '../../src/emails/index.ts';
import { QueueRunner, type Queue } from '../../src/queue/index.ts';
import { fanoutSuite } from './fanout-support.ts';
import { journeyWebhook } from '../journeys/support.ts';
import { campaignTeam } from './support.ts';

const suite = fanoutSuite();

describe('fan-out limits', () => {
  it('pauses for the quota when the plan allows no more today, tells the admins once, and goes on by itself', async () => {
    const team = await campaignTeam(suite.h, 'free');
    await suite.kit.addContacts(team, 150, 'q');
    // 30 of the free plan's 100 a day spent on transactional mail first.
    const sends = await team.call(
      'POST',
      '/v1/emails/batch',
      Array.from({ length: 30 }, (_, i) => ({
        from: team.from(),
        to: `t${i}@example.test`,
        subject: 'S',
        html: '<p>x</p>',
      })),
    );
    expect(sends.status, JSON.stringify(sends.body)).toBe(200);
    const events = await journeyWebhook(suite.h, team.id, ['campaign.started', 'campaign.paused', 'campaign.sent']);
    const runner = await suite.kit.startRunner();
    try {
      const { body: c } = await team.create({ sendNow: true });
      await suite.kit.drain(team, [runner]);
      expect((await suite.kit.emailsPerRecipient(c.id)).size).toBe(70);
      const paused = await suite.kit.read(team, c.id);
      expect(paused).toMatchObject({ status: 'PAUSED', pausedReason: 'QUOTA', total: 150 });
      const notices = async () =>
        (
          await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM team_notices WHERE team_id = ${team.id} AND kind = 'campaign.paused'`.execute(
            suite.h.t.deps.db,
          )
        ).rows[0]!.n;
      expect(await notices()).toBe(1);
      // The next UTC day: 100 more are allowed; 80 are left.
      const now = suite.h.t.clock.now();
      suite.h.t.clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 1)));
      await suite.kit.drain(team, [runner]);
      await suite.kit.drain(team, [runner]);
      const sent = await suite.kit.emailsPerRecipient(c.id);
      expect(sent.size).toBe(150);
      expect([...sent.values()].every((n) => n === 1)).toBe(true);
      expect(await suite.kit.read(team, c.id)).toMatchObject({ status: 'SENT', pausedReason: null });
      expect(await notices()).toBe(1);
      const seen = { campaignId: c.id, name: 'November news', total: 150 };
      expect(await events('campaign.started')).toEqual([expect.objectContaining({ ...seen, status: 'RUNNING' })]);
      expect(await events('campaign.paused')).toEqual([
        expect.objectContaining({ ...seen, status: 'PAUSED', pausedReason: 'QUOTA' }),
      ]);
      expect(await events('campaign.sent')).toEqual([
        expect.objectContaining({ ...seen, status: 'SENT', finishedAt: expect.any(String) }),
      ]);
    } finally {
      await runner.stop();
    }
  });

  it("delivers campaign mail in a lane of its own: a campaign's backlog does not hold transactional mail back", async () => {
    const team = await campaignTeam(suite.h);
    await suite.kit.addContacts(team, 60, 'lane');
    const sentEvents = await journeyWebhook(suite.h, team.id, ['email.sent']);
    const fanout = await suite.kit.startRunner();
    const { body: c } = await team.create({ sendNow: true });
    try {
      await suite.kit.drain(team, [fanout]);
    } finally {
      await fanout.stop();
    }
    const reset = await team.call('POST', '/v1/emails', {
      from: team.from(),
      to: 'someone@example.test',
      subject: 'Reset your password',
      html: '<p>reset</p>',
    });
    const lane = (queue: Queue) =>
      new QueueRunner({ database: suite.h.t.deps.database, queues: [queue], clock: suite.h.t.clock, pollMs: 50 });
    const statuses = async () =>
      new Map(
        (
          await sql<{
            lane: string;
            status: string;
            n: number;
          }>`SELECT CASE WHEN campaign_id IS NULL THEN 'transactional' ELSE 'campaign' END AS lane,
            status, count(*)::int AS n FROM emails WHERE team_id = ${team.id} GROUP BY 1, 2`.execute(suite.h.t.deps.db)
        ).rows.map((row) => [`${row.lane} ${row.status}`, row.n]),
      );
    const transactional = lane(emailDeliveryQueue(suite.kit.delivery()));
    await transactional.start();
    try {
      await expect
        .poll(async () => (await team.call('GET', `/v1/emails/${reset.body.emailId}`)).body.latestStatus, {
          timeout: 20_000,
        })
        .toBe('SENT');
    } finally {
      await transactional.stop();
    }
    expect(await statuses()).toEqual(
      new Map([
        ['transactional SENT', 1],
        ['campaign QUEUED', 60],
      ]),
    );
    const campaignLane = lane(bulkDeliveryQueue(suite.kit.delivery()));
    await campaignLane.start();
    try {
      await expect.poll(async () => (await statuses()).get('campaign SENT'), { timeout: 20_000 }).toBe(60);
    } finally {
      await campaignLane.stop();
    }
    // Each email.sent payload names its campaign (the password reset none).
    const payloads = await sentEvents('email.sent');
    expect(payloads.filter((p) => p.campaignId === c.id)).toHaveLength(60);
    expect(payloads.filter((p) => p.campaignId === null).map((p) => p.subject)).toEqual(['Reset your password']);
    // Counted as the SENT events arrived (the password reset is not the campaign's).
    expect(await suite.kit.read(team, c.id)).toMatchObject({
      status: 'SENT',
      total: 60,
      sent: 60,
      delivered: 0,
      bounced: 0,
    });
  });
});

// The fan-out through HTTP and the campaign-fanout queue: the audience taken once when a campaign
// starts (subscribed contacts, the segment's when one is set), one MARKETING email per recipient
// carrying the campaign's id, batches spread over the window, pause and resume, two runners at once.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_FANOUT_QUEUE, campaignFanoutQueue } from '../../src/campaigns/index.ts';
import { createLogTransport } from '../../src/adapters/mail-transport/index.ts';
import { campaignDeliveryQueue, emailDeliveryQueue } from '../../src/emails/index.ts';
import { sessionBounces } from '../../src/feedback/index.ts';
import { QueueRunner, type Queue } from '../../src/queue/index.ts';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { definition } from '../segments/helpers.ts';
import { campaignTeam, type CampaignTeam } from './support.ts';

let h: EmailHarness;
beforeAll(async () => void (h = await startEmailHarness()), 120_000);
afterAll(() => h.close());

/** What both delivery lanes deliver through: the log transport. */
const delivery = () => ({
  secrets: h.t.deps.secrets,
  publicUrl: h.t.deps.config.publicUrl,
  transport: createLogTransport(() => {}),
  mailDomain: h.t.deps.config.mailDomain,
  bounces: sessionBounces,
});

async function startRunner() {
  const runner = new QueueRunner({
    database: h.t.deps.database,
    queues: [campaignFanoutQueue()],
    clock: h.t.clock,
    pollMs: 50,
  });
  await runner.start();
  return runner;
}

/** Lets the runners take every campaign of the team due now, until none is due or held. */
async function drain(team: CampaignTeam, runners: QueueRunner[]) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    for (const runner of runners) runner.notify(CAMPAIGN_FANOUT_QUEUE);
    await Promise.all(runners.map((runner) => runner.idle()));
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM campaigns WHERE team_id = ${team.id}
      AND (lease_until IS NOT NULL OR (status IN ('SCHEDULED', 'RUNNING') AND next_batch_at <= ${h.t.clock.now()}))`.execute(
      h.t.deps.db,
    );
    if (rows[0]!.n === 0) return;
    if (Date.now() > deadline) throw new Error(`campaigns not drained: ${rows[0]!.n} due or held`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function addContacts(team: CampaignTeam, count: number, prefix: string, fields: Record<string, unknown> = {}) {
  const contacts = Array.from({ length: count }, (_, i) => ({
    email: `${prefix}${i}@example.test`,
    firstName: `Reader${i}`,
    ...fields,
  }));
  const added = await team.call('POST', `/v1/contactBooks/${team.bookId}/contacts/bulk`, contacts);
  expect(added.status, JSON.stringify(added.body)).toBe(200);
}

/** The campaign's emails by recipient address: how many each got. */
async function emailsPerRecipient(campaignId: string) {
  const { rows } = await sql<{ to: string; n: number }>`SELECT "to" #>> '{}' AS "to", count(*)::int AS n
    FROM emails WHERE campaign_id = ${campaignId} GROUP BY 1`.execute(h.t.deps.db);
  return new Map(rows.map((row) => [row.to, row.n]));
}

const read = async (team: CampaignTeam, id: string) => (await team.call('GET', `/v1/campaigns/${id}`)).body;

describe('fan-out', () => {
  it('sends each subscribed contact of the snapshot one marketing email, in batches over the window', async () => {
    const team = await campaignTeam(h);
    await addContacts(team, 250, 'reader');
    await addContacts(team, 5, 'gone', { subscribed: false });
    const runner = await startRunner();
    try {
      const { body: c } = await team.create({ batchSize: 100, batchWindowMinutes: 10, sendNow: true });
      await drain(team, [runner]);
      expect(await read(team, c.id)).toMatchObject({ status: 'RUNNING', total: 250 });
      expect([...(await emailsPerRecipient(c.id)).values()].reduce((a, b) => a + b, 0)).toBe(100);
      // Added after the start: not part of the campaign.
      await addContacts(team, 3, 'late');
      h.t.clock.advance(10 * 60_000);
      await drain(team, [runner]);
      expect((await emailsPerRecipient(c.id)).size).toBe(200);
      h.t.clock.advance(10 * 60_000);
      await drain(team, [runner]);
      h.t.clock.advance(10 * 60_000);
      await drain(team, [runner]);
      const done = await read(team, c.id);
      expect(done).toMatchObject({ status: 'SENT', total: 250 });
      expect(done.finishedAt).not.toBeNull();
      const sent = await emailsPerRecipient(c.id);
      expect(sent.size).toBe(250);
      expect([...sent.values()].every((n) => n === 1)).toBe(true);
      expect([...sent.keys()].some((to) => to.startsWith('late') || to.startsWith('gone'))).toBe(false);
      const { rows } = await sql<{ id: string; type: string; headers: Record<string, string>; html: string }>`
        SELECT id, type, headers, html FROM emails WHERE campaign_id = ${c.id} AND "to" #>> '{}' = 'reader7@example.test'`.execute(
        h.t.deps.db,
      );
      expect(rows[0]).toMatchObject({ type: 'MARKETING', headers: { Precedence: 'bulk' } });
      expect(rows[0]!.html).toContain('Hello Reader7');
      const email = await team.call('GET', `/v1/emails/${rows[0]!.id}`);
      expect(email.body.campaignId).toBe(c.id);
    } finally {
      await runner.stop();
    }
  });

  it('sends nothing while paused and goes on where it stopped, once each', async () => {
    const team = await campaignTeam(h);
    await addContacts(team, 120, 'p');
    const runner = await startRunner();
    try {
      const { body: c } = await team.create({ batchSize: 50, batchWindowMinutes: 5, sendNow: true });
      await drain(team, [runner]);
      expect((await team.call('POST', `/v1/campaigns/${c.id}/pause`, {})).status).toBe(200);
      h.t.clock.advance(60 * 60_000);
      await drain(team, [runner]);
      expect((await emailsPerRecipient(c.id)).size).toBe(50);
      expect(await read(team, c.id)).toMatchObject({ status: 'PAUSED', pausedReason: 'MANUAL' });
      expect((await team.call('POST', `/v1/campaigns/${c.id}/schedule`, {})).status).toBe(400);
      expect((await team.call('POST', `/v1/campaigns/${c.id}/resume`, {})).status).toBe(200);
      expect((await read(team, c.id)).status).toBe('RUNNING');
      for (let i = 0; i < 4; i++) {
        await drain(team, [runner]);
        h.t.clock.advance(5 * 60_000);
      }
      const sent = await emailsPerRecipient(c.id);
      expect(sent.size).toBe(120);
      expect([...sent.values()].every((n) => n === 1)).toBe(true);
      expect((await read(team, c.id)).status).toBe('SENT');
    } finally {
      await runner.stop();
    }
  });

  it('sends once each with two runners taking the same campaign', async () => {
    const team = await campaignTeam(h);
    await addContacts(team, 300, 'two');
    const runners = [await startRunner(), await startRunner()];
    try {
      const { body: c } = await team.create({ batchSize: 40, sendNow: true });
      await drain(team, runners);
      const sent = await emailsPerRecipient(c.id);
      expect(sent.size).toBe(300);
      expect([...sent.values()].every((n) => n === 1)).toBe(true);
      expect(await read(team, c.id)).toMatchObject({ status: 'SENT', total: 300 });
      // Its recipients, newest first, a page at a time.
      const seen = new Set<string>();
      let cursor: string | null = null;
      do {
        const page = await team.call(
          'GET',
          `/v1/campaigns/${c.id}/recipients?limit=100${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        for (const r of page.body.data) {
          expect(r).toMatchObject({
            emailId: expect.stringMatching(/^em_/),
            contactId: expect.stringMatching(/^ct_/),
            status: 'QUEUED',
          });
          seen.add(r.email);
        }
        cursor = page.body.nextCursor;
      } while (cursor !== null);
      expect(seen.size).toBe(300);
      expect((await team.call('GET', `/v1/campaigns/${c.id}/recipients?status=SENT`)).body).toEqual({
        data: [],
        nextCursor: null,
      });
      expect((await team.call('GET', `/v1/campaigns/${c.id}/recipients?limit=101`)).status).toBe(400);
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
    }
  });

  it("takes a segment's contacts only, and waits for a later scheduled time", async () => {
    const team = await campaignTeam(h);
    await addContacts(team, 10, 'other');
    await addContacts(team, 10, 'vip');
    const segment = await team.call('POST', `/v1/contactBooks/${team.bookId}/segments`, {
      name: 'VIP',
      definition: definition([{ type: 'email', op: 'contains', value: 'vip' }]),
    });
    expect(segment.status, JSON.stringify(segment.body)).toBe(201);
    const runner = await startRunner();
    try {
      const at = new Date(h.t.clock.now().getTime() + 3_600_000).toISOString();
      const { body: c } = await team.create({ segmentId: segment.body.id, scheduledAt: at });
      await drain(team, [runner]);
      expect(await read(team, c.id)).toMatchObject({ status: 'SCHEDULED', total: 0 });
      h.t.clock.advance(3_600_000);
      await drain(team, [runner]);
      const sent = await emailsPerRecipient(c.id);
      expect([...sent.keys()].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `vip${i}@example.test`).sort());
      expect(await read(team, c.id)).toMatchObject({ status: 'SENT', total: 10 });
    } finally {
      await runner.stop();
    }
  });

  it('pauses for the quota when the plan allows no more today, tells the admins once, and goes on by itself', async () => {
    const team = await campaignTeam(h, 'free');
    await addContacts(team, 150, 'q');
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
    const runner = await startRunner();
    try {
      const { body: c } = await team.create({ sendNow: true });
      await drain(team, [runner]);
      expect((await emailsPerRecipient(c.id)).size).toBe(70);
      const paused = await read(team, c.id);
      expect(paused).toMatchObject({ status: 'PAUSED', pausedReason: 'QUOTA', total: 150 });
      const notices = async () =>
        (
          await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM team_notices WHERE team_id = ${team.id} AND kind = 'campaign.paused'`.execute(
            h.t.deps.db,
          )
        ).rows[0]!.n;
      expect(await notices()).toBe(1);
      // The next UTC day: 100 more are allowed; 80 are left.
      const now = h.t.clock.now();
      h.t.clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 1)));
      await drain(team, [runner]);
      await drain(team, [runner]);
      const sent = await emailsPerRecipient(c.id);
      expect(sent.size).toBe(150);
      expect([...sent.values()].every((n) => n === 1)).toBe(true);
      expect(await read(team, c.id)).toMatchObject({ status: 'SENT', pausedReason: null });
      expect(await notices()).toBe(1);
    } finally {
      await runner.stop();
    }
  });

  it("delivers campaign mail in a lane of its own: a campaign's backlog does not hold transactional mail back", async () => {
    const team = await campaignTeam(h);
    await addContacts(team, 60, 'lane');
    const fanout = await startRunner();
    const { body: c } = await team.create({ sendNow: true });
    try {
      await drain(team, [fanout]);
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
      new QueueRunner({ database: h.t.deps.database, queues: [queue], clock: h.t.clock, pollMs: 50 });
    const statuses = async () =>
      new Map(
        (
          await sql<{
            lane: string;
            status: string;
            n: number;
          }>`SELECT CASE WHEN campaign_id IS NULL THEN 'transactional' ELSE 'campaign' END AS lane,
            status, count(*)::int AS n FROM emails WHERE team_id = ${team.id} GROUP BY 1, 2`.execute(h.t.deps.db)
        ).rows.map((row) => [`${row.lane} ${row.status}`, row.n]),
      );
    const transactional = lane(emailDeliveryQueue(delivery()));
    await transactional.start();
    try {
      await expect
        .poll(async () => (await team.call('GET', `/v1/emails/${reset.body.emailId}`)).body.latestStatus)
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
    const campaignLane = lane(campaignDeliveryQueue(delivery()));
    await campaignLane.start();
    try {
      await expect.poll(async () => (await statuses()).get('campaign SENT'), { timeout: 20_000 }).toBe(60);
    } finally {
      await campaignLane.stop();
    }
    expect((await read(team, c.id)).status).toBe('SENT');
  });
});

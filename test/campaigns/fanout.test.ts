// The fan-out through HTTP and the campaign-fanout queue: the audience taken once when a campaign
// starts (subscribed contacts, the segment's when one is set), one MARKETING email per recipient
// carrying the campaign's id, batches spread over the window, pause and resume, two runners at once.
import { sql } from 'kysely';
import { emailUnsubscribeUrl } from '../../src/contacts/index.ts';
import { describe, expect, it } from 'vitest';
import { definition } from '../segments/helpers.ts';
import { fanoutSuite } from './fanout-support.ts';
import { campaignTeam } from './support.ts';

const suite = fanoutSuite();

describe('fan-out', () => {
  it('sends each subscribed contact of the snapshot one marketing email, in batches over the window', async () => {
    const team = await campaignTeam(suite.h);
    await suite.kit.addContacts(team, 250, 'reader');
    await suite.kit.addContacts(team, 5, 'gone', { subscribed: false });
    const runner = await suite.kit.startRunner();
    try {
      const { body: c } = await team.create({
        batchSize: 100,
        batchWindowMinutes: 10,
        previewText: 'All the news <in brief>',
        sendNow: true,
      });
      await suite.kit.drain(team, [runner]);
      expect(await suite.kit.read(team, c.id)).toMatchObject({ status: 'RUNNING', total: 250 });
      expect([...(await suite.kit.emailsPerRecipient(c.id)).values()].reduce((a, b) => a + b, 0)).toBe(100);
      // Added after the start: not part of the campaign.
      await suite.kit.addContacts(team, 3, 'late');
      suite.h.t.clock.advance(10 * 60_000);
      await suite.kit.drain(team, [runner]);
      expect((await suite.kit.emailsPerRecipient(c.id)).size).toBe(200);
      suite.h.t.clock.advance(10 * 60_000);
      await suite.kit.drain(team, [runner]);
      suite.h.t.clock.advance(10 * 60_000);
      await suite.kit.drain(team, [runner]);
      const done = await suite.kit.read(team, c.id);
      expect(done).toMatchObject({ status: 'SENT', total: 250 });
      expect(done.finishedAt).not.toBeNull();
      const sent = await suite.kit.emailsPerRecipient(c.id);
      expect(sent.size).toBe(250);
      expect([...sent.values()].every((n) => n === 1)).toBe(true);
      expect([...sent.keys()].some((to) => to.startsWith('late') || to.startsWith('gone'))).toBe(false);
      const { rows } = await sql<{ id: string; type: string; headers: Record<string, string>; html: string }>`
        SELECT id, type, headers, html FROM emails WHERE campaign_id = ${c.id} AND "to" #>> '{}' = 'reader7@example.test'`.execute(
        suite.h.t.deps.db,
      );
      expect(rows[0]).toMatchObject({ type: 'MARKETING', headers: { Precedence: 'bulk' } });
      expect(rows[0]!.html).toContain('Hello Reader7');
      expect(rows[0]!.html).toMatch(/^<div style="display:none[^"]*">All the news &lt;in brief&gt;<\/div>/);
      const email = await team.call('GET', `/v1/emails/${rows[0]!.id}`);
      expect(email.body.campaignId).toBe(c.id);
      // Unsubscribing through the email's link counts once, however often it is used.
      const link = emailUnsubscribeUrl(suite.h.t.deps.secrets, suite.h.t.deps.config.publicUrl, {
        teamId: team.id,
        emailId: rows[0]!.id,
        recipient: 'reader7@example.test',
      });
      for (let i = 0; i < 2; i++)
        expect((await suite.h.app.inject({ method: 'POST', url: new URL(link).pathname })).statusCode).toBe(200);
      expect((await suite.kit.read(team, c.id)).unsubscribed).toBe(1);
      const listed = await team.call('GET', `/v1/emails?campaignId=${c.id}&limit=100`);
      expect(listed.body.count).toBe(250);
      expect(listed.body.data.every((e: { campaignId: string }) => e.campaignId === c.id)).toBe(true);
    } finally {
      await runner.stop();
    }
  });

  it('sends nothing while paused and goes on where it stopped, once each', async () => {
    const team = await campaignTeam(suite.h);
    await suite.kit.addContacts(team, 120, 'p');
    const runner = await suite.kit.startRunner();
    try {
      const { body: c } = await team.create({ batchSize: 50, batchWindowMinutes: 5, sendNow: true });
      await suite.kit.drain(team, [runner]);
      expect((await team.call('POST', `/v1/campaigns/${c.id}/pause`, {})).status).toBe(200);
      suite.h.t.clock.advance(60 * 60_000);
      await suite.kit.drain(team, [runner]);
      expect((await suite.kit.emailsPerRecipient(c.id)).size).toBe(50);
      expect(await suite.kit.read(team, c.id)).toMatchObject({ status: 'PAUSED', pausedReason: 'MANUAL' });
      expect((await team.call('POST', `/v1/campaigns/${c.id}/schedule`, {})).status).toBe(400);
      expect((await team.call('POST', `/v1/campaigns/${c.id}/resume`, {})).status).toBe(200);
      expect((await suite.kit.read(team, c.id)).status).toBe('RUNNING');
      for (let i = 0; i < 4; i++) {
        await suite.kit.drain(team, [runner]);
        suite.h.t.clock.advance(5 * 60_000);
      }
      const sent = await suite.kit.emailsPerRecipient(c.id);
      expect(sent.size).toBe(120);
      expect([...sent.values()].every((n) => n === 1)).toBe(true);
      expect((await suite.kit.read(team, c.id)).status).toBe('SENT');
    } finally {
      await runner.stop();
    }
  });

  it('sends once each with two runners taking the same campaign', async () => {
    const team = await campaignTeam(suite.h);
    await suite.kit.addContacts(team, 300, 'two');
    const runners = [await suite.kit.startRunner(), await suite.kit.startRunner()];
    try {
      const { body: c } = await team.create({ batchSize: 40, sendNow: true });
      await suite.kit.drain(team, runners);
      const sent = await suite.kit.emailsPerRecipient(c.id);
      expect(sent.size).toBe(300);
      expect([...sent.values()].every((n) => n === 1)).toBe(true);
      expect(await suite.kit.read(team, c.id)).toMatchObject({ status: 'SENT', total: 300 });
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
    const team = await campaignTeam(suite.h);
    await suite.kit.addContacts(team, 10, 'other');
    await suite.kit.addContacts(team, 10, 'vip');
    const segment = await team.call('POST', `/v1/contactBooks/${team.bookId}/segments`, {
      name: 'VIP',
      definition: definition([{ type: 'email', op: 'contains', value: 'vip' }]),
    });
    expect(segment.status, JSON.stringify(segment.body)).toBe(201);
    const runner = await suite.kit.startRunner();
    try {
      const at = new Date(suite.h.t.clock.now().getTime() + 3_600_000).toISOString();
      const { body: c } = await team.create({ segmentId: segment.body.id, scheduledAt: at });
      await suite.kit.drain(team, [runner]);
      expect(await suite.kit.read(team, c.id)).toMatchObject({ status: 'SCHEDULED', total: 0 });
      suite.h.t.clock.advance(3_600_000);
      await suite.kit.drain(team, [runner]);
      const sent = await suite.kit.emailsPerRecipient(c.id);
      expect([...sent.keys()].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `vip${i}@example.test`).sort());
      expect(await suite.kit.read(team, c.id)).toMatchObject({ status: 'SENT', total: 10 });
    } finally {
      await runner.stop();
    }
  });
});

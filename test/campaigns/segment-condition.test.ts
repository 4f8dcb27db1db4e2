// The email_activity segment condition with a campaignId: the contacts that were the campaign's
// recipients and whose email had the event (received, opened, clicked; ever, never, in_last_days),
// a campaign of another book refused, a deleted campaign a problem.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { recordEmailEvent } from '../../src/emails/index.ts';
import { definition } from '../segments/helpers.ts';
import { fanoutSuite } from './fanout-support.ts';
import { campaignTeam, type CampaignTeam } from './support.ts';

const suite = fanoutSuite();

const activity = (campaignId: string, event: string, op: string, days?: number) =>
  definition([{ type: 'email_activity', event, op, campaignId, ...(days !== undefined && { days }) }]);

async function segmentOf(team: CampaignTeam, body: unknown) {
  return team.call('POST', `/v1/contactBooks/${team.bookId}/segments`, {
    name: `s${Math.random()}`,
    definition: body,
  });
}

/** The campaign's email id for each recipient address. */
async function emailsOf(campaignId: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ to: string; id: string }>`SELECT "to" #>> '{}' AS "to", id FROM emails
    WHERE campaign_id = ${campaignId}`.execute(suite.h.t.deps.db);
  return new Map(rows.map((row) => [row.to, row.id]));
}

describe('email_activity with a campaignId', () => {
  it("selects the campaign's recipients by what their email did, ever, never and lately", async () => {
    const team = await campaignTeam(suite.h);
    await suite.kit.addContacts(team, 4, 'seg');
    const runner = await suite.kit.startRunner();
    const { body: c } = await team.create({ sendNow: true });
    try {
      await suite.kit.drain(team, [runner]);
    } finally {
      await runner.stop();
    }
    // Another campaign of the same book, opened by everyone: its opens are not this campaign's.
    const other = await team.create({ name: 'Other' });
    const emails = await emailsOf(c.id);
    expect(emails.size).toBe(4);
    const { db, clock } = suite.h.t.deps;
    const at = (minutesAgo: number) => new Date(clock.now().getTime() - minutesAgo * 60_000);
    const record = (to: string, status: 'SENT' | 'OPENED' | 'CLICKED', minutesAgo: number) =>
      recordEmailEvent(db, team.id, emails.get(to)!, status, null, at(minutesAgo));
    await record('seg0@example.test', 'SENT', 3 * 24 * 60);
    await record('seg1@example.test', 'SENT', 60);
    await record('seg1@example.test', 'OPENED', 30);
    await record('seg2@example.test', 'SENT', 60);
    await record('seg2@example.test', 'OPENED', 3 * 24 * 60);
    await record('seg2@example.test', 'CLICKED', 3 * 24 * 60);
    // A contact added after the start was no recipient: never is about recipients, not the book.
    await suite.kit.addContacts(team, 1, 'after');

    const count = async (body: unknown) => {
      const made = await segmentOf(team, body);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body.count as number;
    };
    expect(await count(activity(c.id, 'received', 'ever'))).toBe(3);
    expect(await count(activity(c.id, 'opened', 'ever'))).toBe(2);
    expect(await count(activity(c.id, 'opened', 'in_last_days', 1))).toBe(1);
    expect(await count(activity(c.id, 'clicked', 'ever'))).toBe(1);
    expect(await count(activity(c.id, 'received', 'in_last_days', 2))).toBe(2);
    // seg0, seg3 and the contact added later never opened this campaign's email.
    expect(await count(activity(c.id, 'opened', 'never'))).toBe(3);
    expect(await count(activity(other.body.id, 'opened', 'ever'))).toBe(0);

    // Deleted: the segment stays, matches nothing and says why.
    const kept = await segmentOf(team, activity(c.id, 'opened', 'never'));
    expect((await team.call('DELETE', `/v1/campaigns/${c.id}`)).status).toBe(200);
    const read = await team.call('GET', `/v1/contactBooks/${team.bookId}/segments/${kept.body.id}`);
    expect(read.body).toMatchObject({ count: 0, problems: [`campaign "${c.id}" no longer exists`] });
    // Sending the stored definition back is not refused for it.
    const again = await team.call('PATCH', `/v1/contactBooks/${team.bookId}/segments/${kept.body.id}`, {
      definition: activity(c.id, 'opened', 'never'),
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it("refuses a campaign that is not the team's or was sent to another book", async () => {
    const team = await campaignTeam(suite.h);
    const stranger = await campaignTeam(suite.h);
    const { body: theirs } = await stranger.create();
    const book = await team.call('POST', '/v1/contactBooks', { name: 'Other book' });
    const { body: elsewhere } = await team.create({ contactBookId: book.body.id });
    for (const [id, message] of [
      ['cmp_missing', /campaign "cmp_missing" is not a campaign of the team/],
      [theirs.id, /is not a campaign of the team/],
      [elsewhere.id, /is sent to contact book .* not to this segment's book/],
    ] as const) {
      const made = await segmentOf(team, activity(id, 'opened', 'ever'));
      expect(made.status).toBe(400);
      expect(made.body.error.message).toMatch(message);
    }
  });
});

// /v1/campaigns through HTTP: the campaign object, each limit at its edge, the lifecycle (schedule,
// pause, resume, delete), the unsubscribe rule, and the book and segment protections.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { definition } from '../segments/helpers.ts';
import { BODY, campaignTeam, type CampaignTeam } from './support.ts';

let h: EmailHarness, team: CampaignTeam;
beforeAll(async () => {
  h = await startEmailHarness();
  team = await campaignTeam(h);
}, 120_000);
afterAll(() => h.close());

describe('create, read and list', () => {
  it('creates a DRAFT campaign and answers the whole object', async () => {
    const created = await team.create({
      previewText: 'In brief',
      replyTo: 'desk@example.test',
      cc: ['a@example.test'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^cmp_/),
      name: 'November news',
      from: team.from('news'),
      subject: 'What is new',
      previewText: 'In brief',
      contactBookId: team.bookId,
      segmentId: null,
      templateId: null,
      html: BODY,
      content: null,
      status: 'DRAFT',
      scheduledAt: null,
      batchSize: 500,
      batchWindowMinutes: 0,
      total: 0,
      sent: 0,
      delivered: 0,
      opened: 0,
      clicked: 0,
      unsubscribed: 0,
      bounced: 0,
      hardBounced: 0,
      complained: 0,
      replyTo: ['desk@example.test'],
      cc: ['a@example.test'],
      bcc: [],
      pausedReason: null,
      startedAt: null,
      finishedAt: null,
    });
    const read = await team.call('GET', `/v1/campaigns/${created.body.id}`);
    expect(read.body).toEqual(created.body);
  });

  it('lists newest first, 30 a page, by status and by a search of name or subject', async () => {
    const t = await campaignTeam(h);
    for (let i = 0; i < 31; i++) {
      h.t.clock.advance(1);
      expect((await t.create({ name: `Issue ${i}`, subject: i === 7 ? 'Special_offer 100%' : 'News' })).status).toBe(
        200,
      );
    }
    const first = await t.call('GET', '/v1/campaigns');
    expect(first.body.totalPage).toBe(2);
    expect(first.body.campaigns).toHaveLength(30);
    expect(first.body.campaigns[0]).toMatchObject({ name: 'Issue 30', status: 'DRAFT', total: 0, sent: 0 });
    expect(Object.keys(first.body.campaigns[0]).sort()).toEqual(
      [
        'createdAt',
        'delivered',
        'from',
        'id',
        'name',
        'scheduledAt',
        'sent',
        'status',
        'subject',
        'total',
        'unsubscribed',
        'updatedAt',
        // Herald's, beside useSend's.
        'contactBookId',
        'segmentId',
        'opened',
        'clicked',
      ].sort(),
    );
    const second = await t.call('GET', '/v1/campaigns?page=2');
    expect(second.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['Issue 0']);
    const found = await t.call('GET', '/v1/campaigns?search=special_OFFER%20100%25');
    expect(found.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['Issue 7']);
    expect((await t.call('GET', '/v1/campaigns?search=ISSUE 1')).body.campaigns).toHaveLength(11);
    await t.call('POST', `/v1/campaigns/${first.body.campaigns[0].id}/schedule`, {});
    const scheduled = await t.call('GET', '/v1/campaigns?status=SCHEDULED');
    expect(scheduled.body).toMatchObject({ totalPage: 1, campaigns: [{ name: 'Issue 30', status: 'SCHEDULED' }] });
    expect((await t.call('GET', '/v1/campaigns?status=LIVE')).status).toBe(400);
  });

  it('refuses what the team does not have, naming the field', async () => {
    const other = await campaignTeam(h);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ from: 'news@unverified.example.test' }, /^from: unverified\.example\.test is not a verified/],
      [{ from: 'not an address' }, /^from:/],
      [{ contactBookId: other.bookId }, /^contactBookId: the team has no contact book/],
      [{ templateId: 'tpl_missing', html: undefined }, /^templateId: the team has no template/],
      [{ replyTo: ['ok@example.test', 'nope'] }, /^replyTo\[1\]: must be an email address/],
      [{ content: '{"type":"doc","content":[{"type":"table"}]}', html: undefined }, /^content: .*"table"/],
      [{ content: '{"type":"doc"', html: undefined }, /^content: /],
      [{ segmentId: 'seg_missing' }, /^segmentId: the team has no segment/],
    ];
    for (const [fields, message] of cases) {
      const answer = await team.create(fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
    const template = await team.call('POST', '/v1/templates', { name: 'T', subject: 'S', type: 'MARKETING' });
    const both = await team.create({ templateId: template.body.id });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toBe(
      'templateId: give the body as one of html, content or templateId (html and templateId given)',
    );
    const otherBook = await team.call('POST', '/v1/contactBooks', { name: 'Other' });
    const segment = await team.call('POST', `/v1/contactBooks/${otherBook.body.id}/segments`, {
      name: 'All',
      definition: definition([{ type: 'email', op: 'contains', value: '@' }]),
    });
    const wrongBook = await team.create({ segmentId: segment.body.id });
    expect(wrongBook.status).toBe(400);
    expect(wrongBook.body.error.message).toMatch(/^segmentId: segment .* is not a segment of contact book/);
  });

  it('holds each limit at its edge', async () => {
    const edges: [Record<string, unknown>, number][] = [
      [{ batchSize: 1 }, 200],
      [{ batchSize: 100_000 }, 200],
      [{ batchSize: 0 }, 400],
      [{ batchSize: 100_001 }, 400],
      [{ batchWindowMinutes: 1440 }, 200],
      [{ batchWindowMinutes: 1441 }, 400],
      [{ batchWindowMinutes: -1 }, 400],
      [{ name: 'x'.repeat(200) }, 200],
      [{ name: 'x'.repeat(201) }, 400],
      [{ name: '   ' }, 400],
      [{ cc: Array.from({ length: 50 }, (_, i) => `c${i}@example.test`) }, 200],
      [{ cc: Array.from({ length: 51 }, (_, i) => `c${i}@example.test`) }, 400],
      [{ scheduledAt: 'tomorrow' }, 400],
    ];
    for (const [fields, status] of edges) {
      const answer = await team.create(fields);
      expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBe(status);
    }
    const missing = await team.call('POST', '/v1/campaigns', { name: 'N', from: team.from(), subject: 'S' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/contactBookId/);
  });
});

describe('lifecycle', () => {
  it('schedules (now or later), moves a scheduled time, pauses, resumes and deletes', async () => {
    const { body: c } = await team.create();
    expect((await team.call('POST', `/v1/campaigns/${c.id}/schedule`, {})).body).toEqual({ success: true });
    const now = h.t.clock.now().toISOString();
    expect((await team.call('GET', `/v1/campaigns/${c.id}`)).body).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: now,
    });
    const later = new Date(h.t.clock.now().getTime() + 3_600_000).toISOString();
    const moved = await team.call('POST', `/v1/campaigns/${c.id}/schedule`, { scheduledAt: later, batchSize: 50 });
    expect(moved.status).toBe(200);
    expect((await team.call('GET', `/v1/campaigns/${c.id}`)).body).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: later,
      batchSize: 50,
    });
    expect((await team.call('POST', `/v1/campaigns/${c.id}/pause`, {})).body).toEqual({ success: true });
    expect((await team.call('GET', `/v1/campaigns/${c.id}`)).body).toMatchObject({
      status: 'PAUSED',
      pausedReason: 'MANUAL',
    });
    expect((await team.call('POST', `/v1/campaigns/${c.id}/pause`, {})).status).toBe(400);
    expect((await team.call('POST', `/v1/campaigns/${c.id}/schedule`, {})).status).toBe(400);
    expect((await team.call('POST', `/v1/campaigns/${c.id}/resume`, {})).body).toEqual({ success: true });
    expect((await team.call('GET', `/v1/campaigns/${c.id}`)).body).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: later,
      pausedReason: null,
    });
    expect((await team.call('POST', `/v1/campaigns/${c.id}/resume`, {})).status).toBe(400);
    const deleted = await team.call('DELETE', `/v1/campaigns/${c.id}`);
    expect(deleted.body).toMatchObject({ id: c.id, status: 'SCHEDULED' });
    expect((await team.call('GET', `/v1/campaigns/${c.id}`)).status).toBe(404);
    expect((await team.call('DELETE', `/v1/campaigns/${c.id}`)).status).toBe(404);
  });

  it('creates scheduled with sendNow or scheduledAt, as useSend does', async () => {
    const now = await team.create({ sendNow: true });
    expect(now.body).toMatchObject({ status: 'SCHEDULED', scheduledAt: h.t.clock.now().toISOString() });
    const at = '2031-01-02T03:04:05.000Z';
    expect((await team.create({ scheduledAt: '2031-01-02T04:04:05+01:00' })).body).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: at,
    });
  });

  it('will not schedule a body without an unsubscribe link, and stores nothing when sendNow is refused', async () => {
    const plain = await team.create({ html: '<p>No way out</p>' });
    const refused = await team.call('POST', `/v1/campaigns/${plain.body.id}/schedule`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('a campaign must include an unsubscribe link');
    const before = (await team.call('GET', '/v1/campaigns?search=Nothing%20stored')).body.campaigns.length;
    const atOnce = await team.create({ name: 'Nothing stored', html: '<p>No way out</p>', sendNow: true });
    expect(atOnce.status).toBe(400);
    expect((await team.call('GET', '/v1/campaigns?search=Nothing%20stored')).body.campaigns).toHaveLength(before);
    for (const name of ['usesend_unsubscribe_url', 'unsend_unsubscribe_url']) {
      const theirs = await team.create({ html: `<a href="{{ ${name} }}">Leave</a>` });
      expect((await team.call('POST', `/v1/campaigns/${theirs.body.id}/schedule`, {})).status).toBe(200);
    }
    const template = await team.call('POST', '/v1/templates', { name: 'M', subject: 'S', type: 'MARKETING' });
    const fromTemplate = await team.create({ html: undefined, templateId: template.body.id });
    expect((await team.call('POST', `/v1/campaigns/${fromTemplate.body.id}/schedule`, {})).status).toBe(200);
  });

  it('changes a DRAFT campaign only, checking what it names', async () => {
    const { body: c } = await team.create();
    const changed = await team.call('PATCH', `/v1/campaigns/${c.id}`, { subject: 'Changed', bcc: 'b@example.test' });
    expect(changed.body).toMatchObject({ subject: 'Changed', bcc: ['b@example.test'], name: 'November news' });
    // A segment set, then taken off again with null: the whole book.
    const segment = await team.call('POST', `/v1/contactBooks/${c.contactBookId}/segments`, {
      name: 'Some',
      definition: definition([{ type: 'email', op: 'contains', value: '@' }]),
    });
    const narrowed = await team.call('PATCH', `/v1/campaigns/${c.id}`, { segmentId: segment.body.id });
    expect(narrowed.body.segmentId).toBe(segment.body.id);
    expect((await team.call('PATCH', `/v1/campaigns/${c.id}`, { name: 'Renamed' })).body.segmentId).toBe(
      segment.body.id,
    );
    expect((await team.call('PATCH', `/v1/campaigns/${c.id}`, { segmentId: null })).body.segmentId).toBeNull();
    expect((await team.call('PATCH', `/v1/campaigns/${c.id}`, { from: 'x@unverified.example.test' })).status).toBe(400);
    await team.call('POST', `/v1/campaigns/${c.id}/schedule`, {});
    const late = await team.call('PATCH', `/v1/campaigns/${c.id}`, { subject: 'Too late' });
    expect(late.status).toBe(400);
    expect(late.body.error.message).toContain('only a DRAFT campaign can be changed');
  });

  it("takes useSend's editor document as the body, and a change of body replaces the others", async () => {
    const doc = (text: string) =>
      JSON.stringify({
        type: 'doc',
        content: [
          { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text }] },
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: 'Hello ' },
              { type: 'text', text: 'leave', marks: [{ type: 'link', attrs: { href: '{{unsubscribeUrl}}' } }] },
            ],
          },
        ],
      });
    const created = await team.create({ html: undefined, content: doc('<News>') });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.content).toBe(doc('<News>'));
    expect(created.body.html).toContain('&lt;News&gt;</h1>');
    expect(created.body.html).toContain('href="{{unsubscribeUrl}}"');
    const id = created.body.id;
    const template = await team.call('POST', '/v1/templates', { name: 'B', subject: 'S', type: 'MARKETING' });
    const patch = async (fields: Record<string, unknown>) =>
      (await team.call('PATCH', `/v1/campaigns/${id}`, fields)).body;
    expect(await patch({ templateId: template.body.id })).toMatchObject({
      templateId: template.body.id,
      html: null,
      content: null,
    });
    expect(await patch({ subject: 'Kept body' })).toMatchObject({ templateId: template.body.id, html: null });
    expect(await patch({ html: BODY })).toMatchObject({ templateId: null, html: BODY, content: null });
    expect(await patch({ content: doc('Again') })).toMatchObject({ templateId: null, content: doc('Again') });
    const two = await team.call('PATCH', `/v1/campaigns/${id}`, { html: BODY, content: doc('x') });
    expect(two.status).toBe(400);
    expect(two.body.error.message).toMatch(/^content: give the body as one of html, content or templateId/);
    expect((await team.call('POST', `/v1/campaigns/${id}/schedule`, {})).status).toBe(200);
    // Under the field's limit as JSON, over the body's once rendered (styles inlined everywhere).
    const paragraphs = Array.from({ length: 5000 }, () => ({
      type: 'paragraph',
      content: [{ type: 'text', text: 'x' }],
    }));
    const large = await team.create({ html: undefined, content: JSON.stringify({ type: 'doc', content: paragraphs }) });
    expect(large.status).toBe(400);
    expect(large.body.error.message).toMatch(/^content: renders to [\d,]+ characters of html, over the 1,000,000/);
  });

  it('refuses to delete a RUNNING campaign', async () => {
    const { body: c } = await team.create();
    await sql`UPDATE campaigns SET status = 'RUNNING' WHERE id = ${c.id}`.execute(h.t.deps.db);
    const refused = await team.call('DELETE', `/v1/campaigns/${c.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('pause it before deleting it');
    expect((await team.call('POST', `/v1/campaigns/${c.id}/schedule`, {})).status).toBe(400);
    expect((await team.call('POST', `/v1/campaigns/${c.id}/pause`, {})).status).toBe(200);
    expect((await team.call('DELETE', `/v1/campaigns/${c.id}`)).status).toBe(200);
  });
});

describe('test copies', () => {
  it('sends a marked copy to each address, as a marketing email of no campaign', async () => {
    const { body: c } = await team.create({ subject: 'Big news' });
    const sent = await team.call('POST', `/v1/campaigns/${c.id}/test`, { to: ['me@example.test', 'you@example.test'] });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.map((d: { to: string }) => d.to)).toEqual(['me@example.test', 'you@example.test']);
    const { rows } = await sql<{
      subject: string;
      type: string;
      headers: Record<string, string>;
      campaign_id: string | null;
    }>`
      SELECT subject, type, headers, campaign_id FROM emails WHERE id = ${sent.body.data[0].emailId}`.execute(
      h.t.deps.db,
    );
    expect(rows[0]).toEqual({
      subject: '[Test] Big news',
      type: 'MARKETING',
      headers: { 'X-Herald-Test': c.id },
      campaign_id: null,
    });
    expect((await team.call('GET', `/v1/campaigns/${c.id}`)).body).toMatchObject({
      status: 'DRAFT',
      total: 0,
      sent: 0,
    });
    const six = Array.from({ length: 6 }, (_, i) => `t${i}@example.test`);
    expect((await team.call('POST', `/v1/campaigns/${c.id}/test`, { to: six })).status).toBe(400);
    expect((await team.call('POST', `/v1/campaigns/${c.id}/test`, { to: [] })).status).toBe(400);
    expect((await team.call('POST', '/v1/campaigns/cmp_missing/test', { to: ['me@example.test'] })).status).toBe(404);
  });
});

describe('protections', () => {
  it('a book or segment used by a scheduled campaign is not deleted or redefined; paused, it may be', async () => {
    const t = await campaignTeam(h);
    const seg = await t.call('POST', `/v1/contactBooks/${t.bookId}/segments`, {
      name: 'All',
      definition: definition([{ type: 'email', op: 'contains', value: '@' }]),
    });
    const { body: c } = await t.create({ segmentId: seg.body.id, sendNow: true });
    const path = `/v1/contactBooks/${t.bookId}/segments/${seg.body.id}`;
    expect((await t.call('PATCH', path, { name: 'Everyone' })).status).toBe(200);
    const redefine = await t.call('PATCH', path, {
      definition: definition([{ type: 'email', op: 'contains', value: 'x' }]),
    });
    expect(redefine.status).toBe(400);
    expect((await t.call('DELETE', path)).status).toBe(400);
    const deleteBook = await t.call('DELETE', `/v1/contactBooks/${t.bookId}`);
    expect(deleteBook.status).toBe(400);
    expect(deleteBook.body.error.message).toContain('campaign');
    await t.call('POST', `/v1/campaigns/${c.id}/pause`, {});
    expect((await t.call('DELETE', path)).status).toBe(200);
    expect((await t.call('DELETE', `/v1/contactBooks/${t.bookId}`)).status).toBe(200);
  });
});

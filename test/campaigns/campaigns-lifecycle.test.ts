// /v1/campaigns through HTTP: the lifecycle (schedule, pause, resume, delete), changes to a draft and
// its body, the unsubscribe rule, test copies, and the book and segment protections.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { definition } from '../segments/helpers.ts';
import { campaignApiSuite } from './api-support.ts';
import { BODY, campaignTeam } from './support.ts';

const suite = campaignApiSuite();

describe('lifecycle', () => {
  it('schedules (now or later), moves a scheduled time, pauses, resumes and deletes', async () => {
    const { body: c } = await suite.team.create();
    expect((await suite.team.call('POST', `/v1/campaigns/${c.id}/schedule`, {})).body).toEqual({ success: true });
    const now = suite.h.t.clock.now().toISOString();
    expect((await suite.team.call('GET', `/v1/campaigns/${c.id}`)).body).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: now,
    });
    const later = new Date(suite.h.t.clock.now().getTime() + 3_600_000).toISOString();
    const moved = await suite.team.call('POST', `/v1/campaigns/${c.id}/schedule`, {
      scheduledAt: later,
      batchSize: 50,
    });
    expect(moved.status).toBe(200);
    expect((await suite.team.call('GET', `/v1/campaigns/${c.id}`)).body).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: later,
      batchSize: 50,
    });
    expect((await suite.team.call('POST', `/v1/campaigns/${c.id}/pause`, {})).body).toEqual({ success: true });
    expect((await suite.team.call('GET', `/v1/campaigns/${c.id}`)).body).toMatchObject({
      status: 'PAUSED',
      pausedReason: 'MANUAL',
    });
    expect((await suite.team.call('POST', `/v1/campaigns/${c.id}/pause`, {})).status).toBe(400);
    expect((await suite.team.call('POST', `/v1/campaigns/${c.id}/schedule`, {})).status).toBe(400);
    expect((await suite.team.call('POST', `/v1/campaigns/${c.id}/resume`, {})).body).toEqual({ success: true });
    expect((await suite.team.call('GET', `/v1/campaigns/${c.id}`)).body).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: later,
      pausedReason: null,
    });
    expect((await suite.team.call('POST', `/v1/campaigns/${c.id}/resume`, {})).status).toBe(400);
    const deleted = await suite.team.call('DELETE', `/v1/campaigns/${c.id}`);
    expect(deleted.body).toMatchObject({ id: c.id, status: 'SCHEDULED' });
    expect((await suite.team.call('GET', `/v1/campaigns/${c.id}`)).status).toBe(404);
    expect((await suite.team.call('DELETE', `/v1/campaigns/${c.id}`)).status).toBe(404);
  });

  it('creates scheduled with sendNow or scheduledAt, as useSend does', async () => {
    const now = await suite.team.create({ sendNow: true });
    expect(now.body).toMatchObject({ status: 'SCHEDULED', scheduledAt: suite.h.t.clock.now().toISOString() });
    const at = '2031-01-02T03:04:05.000Z';
    expect((await suite.team.create({ scheduledAt: '2031-01-02T04:04:05+01:00' })).body).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: at,
    });
  });

  it('will not schedule a body without an unsubscribe link, and stores nothing when sendNow is refused', async () => {
    const plain = await suite.team.create({ html: '<p>No way out</p>' });
    const refused = await suite.team.call('POST', `/v1/campaigns/${plain.body.id}/schedule`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('a campaign must include an unsubscribe link');
    const before = (await suite.team.call('GET', '/v1/campaigns?search=Nothing%20stored')).body.campaigns.length;
    const atOnce = await suite.team.create({ name: 'Nothing stored', html: '<p>No way out</p>', sendNow: true });
    expect(atOnce.status).toBe(400);
    expect((await suite.team.call('GET', '/v1/campaigns?search=Nothing%20stored')).body.campaigns).toHaveLength(before);
    for (const name of ['usesend_unsubscribe_url', 'unsend_unsubscribe_url']) {
      const theirs = await suite.team.create({ html: `<a href="{{ ${name} }}">Leave</a>` });
      expect((await suite.team.call('POST', `/v1/campaigns/${theirs.body.id}/schedule`, {})).status).toBe(200);
    }
    const template = await suite.team.call('POST', '/v1/templates', { name: 'M', subject: 'S', type: 'MARKETING' });
    const fromTemplate = await suite.team.create({ html: undefined, templateId: template.body.id });
    expect((await suite.team.call('POST', `/v1/campaigns/${fromTemplate.body.id}/schedule`, {})).status).toBe(200);
  });

  it('changes a DRAFT campaign only, checking what it names', async () => {
    const { body: c } = await suite.team.create();
    const changed = await suite.team.call('PATCH', `/v1/campaigns/${c.id}`, {
      subject: 'Changed',
      bcc: 'b@example.test',
    });
    expect(changed.body).toMatchObject({ subject: 'Changed', bcc: ['b@example.test'], name: 'November news' });
    // A segment set, then taken off again with null: the whole book.
    const segment = await suite.team.call('POST', `/v1/contactBooks/${c.contactBookId}/segments`, {
      name: 'Some',
      definition: definition([{ type: 'email', op: 'contains', value: '@' }]),
    });
    const narrowed = await suite.team.call('PATCH', `/v1/campaigns/${c.id}`, { segmentId: segment.body.id });
    expect(narrowed.body.segmentId).toBe(segment.body.id);
    expect((await suite.team.call('PATCH', `/v1/campaigns/${c.id}`, { name: 'Renamed' })).body.segmentId).toBe(
      segment.body.id,
    );
    expect((await suite.team.call('PATCH', `/v1/campaigns/${c.id}`, { segmentId: null })).body.segmentId).toBeNull();
    expect(
      (await suite.team.call('PATCH', `/v1/campaigns/${c.id}`, { from: 'x@unverified.example.test' })).status,
    ).toBe(400);
    await suite.team.call('POST', `/v1/campaigns/${c.id}/schedule`, {});
    const late = await suite.team.call('PATCH', `/v1/campaigns/${c.id}`, { subject: 'Too late' });
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
    const created = await suite.team.create({ html: undefined, content: doc('<News>') });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.content).toBe(doc('<News>'));
    expect(created.body.html).toContain('&lt;News&gt;</h1>');
    expect(created.body.html).toContain('href="{{unsubscribeUrl}}"');
    const id = created.body.id;
    const template = await suite.team.call('POST', '/v1/templates', { name: 'B', subject: 'S', type: 'MARKETING' });
    const patch = async (fields: Record<string, unknown>) =>
      (await suite.team.call('PATCH', `/v1/campaigns/${id}`, fields)).body;
    expect(await patch({ templateId: template.body.id })).toMatchObject({
      templateId: template.body.id,
      html: null,
      content: null,
    });
    expect(await patch({ subject: 'Kept body' })).toMatchObject({ templateId: template.body.id, html: null });
    expect(await patch({ html: BODY })).toMatchObject({ templateId: null, html: BODY, content: null });
    expect(await patch({ content: doc('Again') })).toMatchObject({ templateId: null, content: doc('Again') });
    const two = await suite.team.call('PATCH', `/v1/campaigns/${id}`, { html: BODY, content: doc('x') });
    expect(two.status).toBe(400);
    expect(two.body.error.message).toMatch(/^content: give the body as one of html, content or templateId/);
    expect((await suite.team.call('POST', `/v1/campaigns/${id}/schedule`, {})).status).toBe(200);
    // Under the field's limit as JSON, over the body's once rendered (styles inlined everywhere).
    const paragraphs = Array.from({ length: 5000 }, () => ({
      type: 'paragraph',
      content: [{ type: 'text', text: 'x' }],
    }));
    const large = await suite.team.create({
      html: undefined,
      content: JSON.stringify({ type: 'doc', content: paragraphs }),
    });
    expect(large.status).toBe(400);
    expect(large.body.error.message).toMatch(/^content: renders to [\d,]+ characters of html, over the 1,000,000/);
  });

  it('refuses to delete a RUNNING campaign', async () => {
    const { body: c } = await suite.team.create();
    await sql`UPDATE campaigns SET status = 'RUNNING' WHERE id = ${c.id}`.execute(suite.h.t.deps.db);
    const refused = await suite.team.call('DELETE', `/v1/campaigns/${c.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('pause it before deleting it');
    expect((await suite.team.call('POST', `/v1/campaigns/${c.id}/schedule`, {})).status).toBe(400);
    expect((await suite.team.call('POST', `/v1/campaigns/${c.id}/pause`, {})).status).toBe(200);
    expect((await suite.team.call('DELETE', `/v1/campaigns/${c.id}`)).status).toBe(200);
  });
});

describe('test copies', () => {
  it('sends a marked copy to each address, as a marketing email of no campaign', async () => {
    const { body: c } = await suite.team.create({ subject: 'Big news' });
    const sent = await suite.team.call('POST', `/v1/campaigns/${c.id}/test`, {
      to: ['me@example.test', 'you@example.test'],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.map((d: { to: string }) => d.to)).toEqual(['me@example.test', 'you@example.test']);
    const { rows } = await sql<{
      subject: string;
      type: string;
      headers: Record<string, string>;
      campaign_id: string | null;
    }>`
      SELECT subject, type, headers, campaign_id FROM emails WHERE id = ${sent.body.data[0].emailId}`.execute(
      suite.h.t.deps.db,
    );
    expect(rows[0]).toEqual({
      subject: '[Test] Big news',
      type: 'MARKETING',
      headers: { 'X-Herald-Test': c.id },
      campaign_id: null,
    });
    expect((await suite.team.call('GET', `/v1/campaigns/${c.id}`)).body).toMatchObject({
      status: 'DRAFT',
      total: 0,
      sent: 0,
    });
    const six = Array.from({ length: 6 }, (_, i) => `t${i}@example.test`);
    expect((await suite.team.call('POST', `/v1/campaigns/${c.id}/test`, { to: six })).status).toBe(400);
    expect((await suite.team.call('POST', `/v1/campaigns/${c.id}/test`, { to: [] })).status).toBe(400);
    expect((await suite.team.call('POST', '/v1/campaigns/cmp_missing/test', { to: ['me@example.test'] })).status).toBe(
      404,
    );
  });
});

describe('protections', () => {
  it('a book or segment used by a scheduled campaign is not deleted or redefined; paused, it may be', async () => {
    const t = await campaignTeam(suite.h);
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

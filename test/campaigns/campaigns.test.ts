// /v1/campaigns through HTTP: the campaign object, its listing, what the team must have, and each
// limit at its edge. The lifecycle is in campaigns-lifecycle.test.ts.
import { describe, expect, it } from 'vitest';
import { definition } from '../segments/helpers.ts';
import { campaignApiSuite } from './api-support.ts';
import { BODY, campaignTeam } from './support.ts';

const suite = campaignApiSuite();

describe('create, read and list', () => {
  it('creates a DRAFT campaign and answers the whole object', async () => {
    const created = await suite.team.create({
      previewText: 'In brief',
      replyTo: 'desk@example.test',
      cc: ['a@example.test'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^cmp_/),
      name: 'November news',
      from: suite.team.from('news'),
      subject: 'What is new',
      previewText: 'In brief',
      contactBookId: suite.team.bookId,
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
    const read = await suite.team.call('GET', `/v1/campaigns/${created.body.id}`);
    expect(read.body).toEqual(created.body);
  });

  it('lists newest first, 30 a page, by status and by a search of name or subject', async () => {
    const t = await campaignTeam(suite.h);
    for (let i = 0; i < 31; i++) {
      suite.h.t.clock.advance(1);
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
    const other = await campaignTeam(suite.h);
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
      const answer = await suite.team.create(fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
    const template = await suite.team.call('POST', '/v1/templates', { name: 'T', subject: 'S', type: 'MARKETING' });
    const both = await suite.team.create({ templateId: template.body.id });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toBe(
      'templateId: give the body as one of html, content or templateId (html and templateId given)',
    );
    const otherBook = await suite.team.call('POST', '/v1/contactBooks', { name: 'Other' });
    const segment = await suite.team.call('POST', `/v1/contactBooks/${otherBook.body.id}/segments`, {
      name: 'All',
      definition: definition([{ type: 'email', op: 'contains', value: '@' }]),
    });
    const wrongBook = await suite.team.create({ segmentId: segment.body.id });
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
      const answer = await suite.team.create(fields);
      expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBe(status);
    }
    const missing = await suite.team.call('POST', '/v1/campaigns', {
      name: 'N',
      from: suite.team.from(),
      subject: 'S',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/contactBookId/);
  });
});

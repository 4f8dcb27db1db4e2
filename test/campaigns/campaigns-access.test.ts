// Who may do what with campaigns: full access keys manage them, read only keys list and read them,
// sending and sandbox keys are refused; a key limited to one domain sees and manages only that
// domain's campaigns; another team's campaign is 404 everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { client } from '../journeys/support.ts';
import { campaignTeam, type CampaignTeam } from './support.ts';

let h: EmailHarness, team: CampaignTeam, other: CampaignTeam;
beforeAll(async () => {
  h = await startEmailHarness();
  [team, other] = [await campaignTeam(h), await campaignTeam(h)];
}, 120_000);
afterAll(() => h.close());

const writes = (id: string): [string, string, unknown][] => [
  ['POST', '/v1/campaigns', {}],
  ['PATCH', `/v1/campaigns/${id}`, { subject: 'x' }],
  ['POST', `/v1/campaigns/${id}/schedule`, {}],
  ['POST', `/v1/campaigns/${id}/pause`, {}],
  ['POST', `/v1/campaigns/${id}/resume`, {}],
  ['POST', `/v1/campaigns/${id}/test`, { to: ['me@example.test'] }],
  ['DELETE', `/v1/campaigns/${id}`, undefined],
];

describe('campaign access', () => {
  it("answers another team's campaign as a missing one on every endpoint", async () => {
    const { body: c } = await team.create();
    for (const [method, path, body] of [
      ['GET', `/v1/campaigns/${c.id}`, undefined],
      ['GET', `/v1/campaigns/${c.id}/recipients`, undefined],
      ...writes(c.id).slice(1),
    ] as const) {
      const answer = await other.call(method as 'GET', path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    expect((await other.call('GET', '/v1/campaigns')).body.campaigns).toEqual([]);
    expect((await team.call('GET', `/v1/campaigns/${c.id}`)).body.status).toBe('DRAFT');
  });

  it('lets a read only key list and read, and refuses it every change', async () => {
    const { body: c } = await team.create();
    const readonly = client(h, (await team.makeKey('readonly')).key);
    expect((await readonly('GET', `/v1/campaigns/${c.id}`)).body.id).toBe(c.id);
    expect((await readonly('GET', `/v1/campaigns/${c.id}/recipients`)).body).toEqual({ data: [], nextCursor: null });
    expect((await readonly('GET', '/v1/campaigns')).status).toBe(200);
    for (const [method, path, body] of writes(c.id)) {
      const answer = await readonly(method as 'POST', path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.error.code).toBe('SCOPE_DENIED');
    }
  });

  it('refuses sending and sandbox keys everything', async () => {
    const { body: c } = await team.create();
    for (const kind of ['sending', 'sandbox'] as const) {
      const call = client(h, (await team.makeKey(kind)).key);
      for (const [method, path, body] of [['GET', '/v1/campaigns', undefined], ...writes(c.id)] as const) {
        const answer = await call(method as 'GET', path, body);
        expect(answer.status, `${kind} ${method} ${path}`).toBe(403);
        expect(answer.body.error.code).toBe('SCOPE_DENIED');
      }
    }
  });

  it("keeps a domain-limited key to its domain's campaigns", async () => {
    const second = await team.addDomain();
    const ours = await team.create({ name: 'Ours' });
    const theirs = await team.create({ name: 'Theirs', from: `news@${second.name}` });
    const limited = client(h, (await team.makeKey('full', { domainId: team.domain.id })).key);
    const names = (await limited('GET', '/v1/campaigns')).body.campaigns.map((c: { name: string }) => c.name);
    expect(names).toContain('Ours');
    expect(names).not.toContain('Theirs');
    expect((await limited('GET', `/v1/campaigns/${ours.body.id}`)).status).toBe(200);
    expect((await limited('GET', `/v1/campaigns/${theirs.body.id}`)).status).toBe(404);
    expect((await limited('POST', `/v1/campaigns/${theirs.body.id}/schedule`, {})).status).toBe(404);
    const elsewhere = await limited('POST', '/v1/campaigns', {
      name: 'N',
      from: `news@${second.name}`,
      subject: 'S',
      contactBookId: team.bookId,
      html: '<a href="{{unsubscribeUrl}}">x</a>',
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error.code).toBe('FORBIDDEN');
    const moved = await limited('PATCH', `/v1/campaigns/${ours.body.id}`, { from: `news@${second.name}` });
    expect(moved.status).toBe(403);
  });
});

// GET one (sending key reads only its own), the list (filters, paging, count), reschedule, cancel,
// templates, and another team's emails answering 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templatesClient } from '../templates/helpers.ts';
import { emails, startEmailHarness, type EmailHarness, type SendingTeam } from './support.ts';

const HOUR = 60 * 60 * 1000;
let h: EmailHarness;
let team: SendingTeam;
let api: ReturnType<typeof emails>;

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team({ plan: 'pro' });
  api = emails(h.app, team.key);
});
afterAll(async () => h.close());

const base = () => ({ from: team.from(), to: 'reader@example.com', subject: 'Read me', text: 'Hello' });

describe('GET /v1/emails/{emailId}', () => {
  it('answers the full form with events oldest first and to as sent', async () => {
    const id = await api.sent({
      ...base(),
      to: ['a@example.com', 'B <b@example.com>'],
      cc: 'c@example.com',
      html: '<p>Hi</p>',
    });
    const response = await api.get(id);
    expect(response.statusCode).toBe(200);
    const email = response.json();
    expect(email).toMatchObject({
      id,
      teamId: team.id,
      to: ['a@example.com', 'B <b@example.com>'],
      cc: 'c@example.com',
      from: base().from,
      subject: 'Read me',
      html: '<p>Hi</p>',
      text: 'Hello',
    });
    expect(email.bcc).toBeUndefined();
    expect(email.emailEvents).toEqual([{ emailId: id, status: 'QUEUED', createdAt: expect.any(String), data: null }]);
    expect((await api.get(id)).json().to).toEqual(['a@example.com', 'B <b@example.com>']);
    const single = await api.sent(base());
    expect((await api.get(single)).json().to).toBe('reader@example.com');
  });

  it('a sending key reads only the emails it sent; a full key reads all', async () => {
    const first = await team.makeKey('sending');
    const second = await team.makeKey('sending');
    const id = await emails(h.app, first.key).sent(base());
    expect((await emails(h.app, first.key).get(id)).statusCode).toBe(200);
    expect((await emails(h.app, second.key).get(id)).statusCode).toBe(404);
    expect((await api.get(id)).statusCode).toBe(200);
  });

  it("a key limited to a domain reaches only that domain's emails: get, patch and cancel of another domain's are 404", async () => {
    const second = await team.addDomain();
    const later = () => ({ scheduledAt: new Date(h.t.clock.now().getTime() + HOUR).toISOString() });
    const onFirst = await api.sent({ ...base(), ...later() });
    const onSecond = await api.sent({ ...base(), from: `news@${second.name}`, ...later() });
    const limited = emails(h.app, (await team.makeKey('full', { domainId: second.id })).key);
    expect((await limited.get(onSecond)).statusCode).toBe(200);
    expect((await limited.get(onFirst)).statusCode).toBe(404);
    expect((await limited.patch(onFirst, { scheduledAt: new Date().toISOString() })).statusCode).toBe(404);
    expect((await limited.cancel(onFirst)).statusCode).toBe(404);
    expect((await limited.cancel(onSecond)).statusCode).toBe(200);
  });

  it("another team's email is 404 on get, patch and cancel", async () => {
    const other = await h.team({ plan: 'pro' });
    const id = await api.sent({ ...base(), scheduledAt: new Date(h.t.clock.now().getTime() + HOUR).toISOString() });
    const theirs = emails(h.app, other.key);
    expect((await theirs.get(id)).statusCode).toBe(404);
    expect((await theirs.patch(id, { scheduledAt: new Date().toISOString() })).statusCode).toBe(404);
    expect((await theirs.cancel(id)).statusCode).toBe(404);
    expect((await api.get('em_missing')).statusCode).toBe(404);
  });
});

describe('templates', () => {
  it('templateId supplies subject, preview text and body, filled with variables', async () => {
    const template = await templatesClient(h.app, team.key).make({
      subject: 'Hello {{firstName}}',
      html: '<p>Hi {{firstName}}</p>',
      previewText: 'Preview',
    });
    const id = await api.sent({
      from: team.from(),
      to: 'x@example.com',
      templateId: template.id,
      variables: { firstName: 'Ada' },
    });
    const email = (await api.get(id)).json();
    expect(email.subject).toBe('Hello Ada');
    expect(email.html).toContain('Hi Ada');
    expect(email.html).toContain('Preview');
  });

  it("another team's template is 404", async () => {
    const other = await h.team({ plan: 'pro' });
    const theirs = await templatesClient(h.app, other.key).make();
    const response = await api.send({ from: team.from(), to: 'x@example.com', templateId: theirs.id });
    expect(response.statusCode).toBe(404);
  });
});

describe('GET /v1/emails', () => {
  it('lists newest first with filters, paging and count', async () => {
    const listTeam = await h.team({ plan: 'pro' });
    const second = await listTeam.addDomain();
    const list = emails(h.app, listTeam.key);
    const start = h.t.clock.now();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await list.sent({ from: listTeam.from(), to: 'l@example.com', subject: `L${i}`, text: 'x' }));
      h.t.clock.advance(HOUR);
    }
    const onSecond = await list.sent({ from: `x@${second.name}`, to: 'l@example.com', subject: 'Second', text: 'x' });

    const all = (await list.list()).json();
    expect(all.count).toBe(4);
    expect(all.data.map((e: { id: string }) => e.id)).toEqual([onSecond, ids[2], ids[1], ids[0]]);
    expect(all.data[0]).toMatchObject({ latestStatus: 'QUEUED', domainId: second.id, scheduledAt: null, cc: null });

    const paged = (await list.list('?limit=1&page=2')).json();
    expect(paged.count).toBe(4);
    expect(paged.data.map((e: { id: string }) => e.id)).toEqual([ids[2]]);

    const byDomain = (await list.list(`?domainId=${listTeam.domain.id}`)).json();
    expect(byDomain.count).toBe(3);
    const both = (await list.list(`?domainId=${listTeam.domain.id}&domainId=${second.id}`)).json();
    expect(both.count).toBe(4);

    const window = `?startDate=${new Date(start.getTime() + HOUR).toISOString()}&endDate=${new Date(start.getTime() + 2 * HOUR).toISOString()}`;
    expect((await list.list(window)).json().data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);

    const { key } = await listTeam.makeKey('full', { domainId: second.id });
    const limited = (await emails(h.app, key).list()).json();
    expect(limited.data.map((e: { id: string }) => e.id)).toEqual([onSecond]);

    expect((await list.list('?limit=100')).statusCode).toBe(200);
    expect((await list.list('?limit=101')).statusCode).toBe(400);
    expect((await list.list('?page=0')).statusCode).toBe(400);
  });

  it('needs a full access key', async () => {
    const { key } = await team.makeKey('sending');
    expect((await emails(h.app, key).list()).statusCode).toBe(403);
  });
});

describe('reschedule and cancel', () => {
  const later = (ms: number) => new Date(h.t.clock.now().getTime() + ms).toISOString();

  it('a future scheduledAt makes the email SCHEDULED; PATCH replaces the time', async () => {
    const id = await api.sent({ ...base(), scheduledAt: later(HOUR) });
    const newTime = later(2 * HOUR);
    const response = await api.patch(id, { scheduledAt: newTime });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ emailId: id });
    const listed = (await api.list()).json().data.find((e: { id: string }) => e.id === id);
    expect(listed).toMatchObject({ latestStatus: 'SCHEDULED', scheduledAt: newTime });
  });

  it('a past scheduledAt queues at once', async () => {
    const id = await api.sent({ ...base(), scheduledAt: new Date(h.t.clock.now().getTime() - HOUR).toISOString() });
    expect((await api.get(id)).json().emailEvents.map((e: { status: string }) => e.status)).toEqual(['QUEUED']);
  });

  it('cancel ends a scheduled email with a CANCELLED event; a second cancel or a PATCH is 409', async () => {
    const id = await api.sent({ ...base(), scheduledAt: later(HOUR) });
    const response = await api.cancel(id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ emailId: id });
    expect((await api.get(id)).json().emailEvents.map((e: { status: string }) => e.status)).toEqual([
      'SCHEDULED',
      'CANCELLED',
    ]);
    expect((await api.cancel(id)).statusCode).toBe(409);
    expect((await api.patch(id, { scheduledAt: later(HOUR) })).statusCode).toBe(409);
  });

  it('a queued (not scheduled) email cannot be cancelled', async () => {
    const id = await api.sent(base());
    expect((await api.cancel(id)).statusCode).toBe(409);
  });

  it('PATCH and cancel need a full access key', async () => {
    const id = await api.sent({ ...base(), scheduledAt: later(HOUR) });
    const { key } = await team.makeKey('sending');
    expect((await emails(h.app, key).patch(id, { scheduledAt: later(HOUR) })).statusCode).toBe(403);
    expect((await emails(h.app, key).cancel(id)).statusCode).toBe(403);
  });
});

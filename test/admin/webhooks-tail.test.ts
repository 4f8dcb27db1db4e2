// GET /admin/v1/teams/{teamId}/events and `herald admin webhooks tail` (issue 46): a team's events as
// recorded by the real writers (the send path's set-based insert, recordEvents), with or without a
// webhook, each the body a webhook receives; after a cursor in order, paged, never another team's;
// recorded only while the tail is read. The CLI maps its arguments to those reads and prints a line
// per event, or JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands, type AdminJob, type AdminRequest } from '../../src/admin/cli-commands.ts';
import { tailLine } from '../../src/admin/cli-webhook-commands.ts';
import { recordEvents, type EventData } from '../../src/webhooks/index.ts';
import { emails, type SendingTeam } from '../emails/support.ts';
import { TEST_ADMIN_TOKEN } from '../support/app.ts';
import { bearer } from '../support/factory.ts';
import { createWebhook, startWebhookHarness, type WebhookHarness } from '../webhooks/support.ts';

interface TailEventJson {
  cursor: string;
  type: string;
  createdAt: string;
  about: string | null;
  summary: string;
  event: { type: string; createdAt: string; data: Record<string, unknown> };
}
interface TailPageJson {
  data: TailEventJson[];
  nextCursor: string;
  hasMore: boolean;
  recordingUntil: string;
}

let w: WebhookHarness, a: SendingTeam, b: SendingTeam;
beforeAll(async () => {
  w = await startWebhookHarness({ dispatch: false });
  [a, b] = [await w.h.team({ plan: 'pro' }), await w.h.team({ plan: 'pro' })];
});
afterAll(async () => w?.close());

const admin = (path: string, token = TEST_ADMIN_TOKEN) =>
  w.h.app.inject({ method: 'GET', url: `/admin/v1${path}`, headers: { authorization: `Bearer ${token}` } });

async function tail(teamId: number, query = ''): Promise<TailPageJson> {
  const response = await admin(`/teams/${teamId}/events${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/**
 * Reads until `ready` holds. An event shows once every transaction that began writing before it has
 * ended, anywhere on the server (the tail never skips one that commits late): on a PostgreSQL server
 * shared with other test workers, that can take a moment.
 */
async function tailWhen(teamId: number, query: string, ready: (page: TailPageJson) => boolean) {
  let page: TailPageJson | undefined;
  await expect.poll(async () => ready((page = await tail(teamId, query))), { timeout: 10_000 }).toBe(true);
  return page!;
}

const send = (team: SendingTeam, subject: string) =>
  emails(w.h.app, team.key).sent({ from: team.from(), to: 'reader@example.net', subject, text: 'Hi' });

const run = (runId: string, status: 'COMPLETED' | 'EXITED'): EventData<'journey.run.completed'> => ({
  runId,
  journeyId: 'jr_tail',
  contactId: 'ct_tail',
  status,
  exitReason: status === 'EXITED' ? 'UNSUBSCRIBED' : null,
  currentStepIndex: 2,
});

describe('GET /admin/v1/teams/{teamId}/events', () => {
  it('needs the admin token; an unknown team is 404; a cursor that is not one and a limit past 500 are 400', async () => {
    expect((await w.h.app.inject({ method: 'GET', url: `/admin/v1/teams/${a.id}/events` })).statusCode).toBe(401);
    expect((await admin(`/teams/${a.id}/events`, 'wrong-token-0123456789')).statusCode).toBe(401);
    expect((await admin('/teams/999999999/events')).statusCode).toBe(404);
    const badCursor = await admin(`/teams/${a.id}/events?after=em_123`);
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().error.message).toMatch(/after/);
    expect((await admin(`/teams/${a.id}/events?limit=501`)).statusCode).toBe(400);
    expect((await admin(`/teams/${a.id}/events?limit=0`)).statusCode).toBe(400);
  });

  it('records nothing for a team nobody tails', async () => {
    const quiet = await w.h.team();
    await send(quiet, 'Before anyone looked');
    expect((await tail(quiet.id)).data).toEqual([]);
  });

  it('answers the events recorded after a cursor, in order, as a webhook receives them; never another team’s', async () => {
    const start = await tail(a.id);
    expect(start.data).toEqual([]);
    expect(start.hasMore).toBe(false);
    expect(start.recordingUntil).toBe(new Date(w.h.t.clock.now().getTime() + 60_000).toISOString());
    await tail(b.id); // b's tail is open too: its events are recorded, and must not show in a's

    const first = await send(a, 'First');
    await send(b, 'Not yours');
    const at = w.h.t.clock.now();
    await recordEvents(w.h.t.deps.db, [
      { teamId: a.id, type: 'journey.run.completed', domainId: null, data: run('run_1', 'COMPLETED'), at },
      { teamId: b.id, type: 'journey.run.completed', domainId: null, data: run('run_b', 'COMPLETED'), at },
      { teamId: a.id, type: 'journey.run.exited', domainId: null, data: run('run_2', 'EXITED'), at },
    ]);
    const last = await send(a, 'Last');

    const page = await tailWhen(a.id, `?after=${start.nextCursor}`, (p) => p.data.length >= 4);
    expect(page.data.map((e) => [e.type, e.about])).toEqual([
      ['email.queued', first],
      ['journey.run.completed', 'run_1'],
      ['journey.run.exited', 'run_2'],
      ['email.queued', last],
    ]);
    expect(page.hasMore).toBe(false);
    const [queued] = page.data;
    expect(queued!.summary).toBe('"First" to reader@example.net');
    expect(queued!.event).toMatchObject({
      type: 'email.queued',
      createdAt: queued!.createdAt,
      data: { emailId: first, status: 'QUEUED', subject: 'First', domainId: a.domain.id },
    });
    expect(page.data[2]!.summary).toBe('journey jr_tail, contact ct_tail, step 2: UNSUBSCRIBED');

    // Read again from where it ended: nothing new. b's own read shows b's events only.
    expect((await tail(a.id, `?after=${page.nextCursor}`)).data).toEqual([]);
    const theirs = await tailWhen(b.id, `?after=${start.nextCursor}`, (p) => p.data.length >= 2);
    expect(theirs.data.map((e) => e.type)).toEqual(['email.queued', 'journey.run.completed']);
    expect(theirs.data[0]!.summary).toBe('"Not yours" to reader@example.net');

    // Paged: at most `limit`, hasMore until the last page, each page after the last one read.
    const one = await tail(a.id, `?after=${start.nextCursor}&limit=3`);
    expect(one.data.map((e) => e.about)).toEqual([first, 'run_1', 'run_2']);
    expect(one.hasMore).toBe(true);
    expect(one.nextCursor).toBe(one.data[2]!.cursor);
    const two = await tail(a.id, `?after=${one.nextCursor}&limit=3`);
    expect(two.data.map((e) => e.about)).toEqual([last]);
    expect(two.hasMore).toBe(false);

    // Without a cursor: the newest, oldest first.
    expect((await tail(a.id, '?limit=2')).data.map((e) => e.about)).toEqual(['run_2', last]);
  });

  it('shows exactly the body a webhook call carries, with a webhook or without', async () => {
    const hooked = await w.h.team({ plan: 'pro' });
    await createWebhook(w, hooked.key, { url: w.url(), eventTypes: ['email.queued'] });
    const start = await tail(hooked.id);
    const emailId = await send(hooked, 'Hooked');
    const [event] = (await tailWhen(hooked.id, `?after=${start.nextCursor}`, (p) => p.data.length > 0)).data;
    const calls = await w.request(hooked.key, 'GET', '/v1/webhooks/calls');
    const [listed] = calls.json().data as { id: string }[];
    const detail = await w.h.app.inject({
      method: 'GET',
      url: `/api/v1/webhooks/calls/${listed!.id}`,
      headers: bearer(hooked.key),
    });
    expect(event!.about).toBe(emailId);
    expect(event!.event).toEqual(JSON.parse(detail.json().payload));
  });

  it('stops recording a minute after the last read', async () => {
    const team = await w.h.team();
    const start = await tail(team.id);
    w.h.t.clock.advance(61_000);
    await send(team, 'Nobody looking');
    const reopened = await tail(team.id, `?after=${start.nextCursor}`);
    expect(reopened.data).toEqual([]);
    const seen = await send(team, 'Looking again');
    const after = await tailWhen(team.id, `?after=${reopened.nextCursor}`, (p) => p.data.length > 0);
    expect(after.data.map((e) => e.about)).toEqual([seen]);
  });
});

describe('herald admin webhooks tail', () => {
  const command = adminCommands.find((c) => c.resource === 'webhooks' && c.action === 'tail')!;

  it('takes one team id, as an argument or --team', () => {
    expect(command.follows).toBe(true);
    expect(() => command.toRequest({}, [])).toThrow(/a team id is required/);
    expect(() => command.toRequest({}, ['abc'])).toThrow(/--team must be a whole number/);
    expect(() => command.toRequest({}, ['1', '2'])).toThrow(/one team id/);
    expect(typeof command.toRequest({ team: '7' }, [])).toBe('function');
  });

  /** Runs the job against the app until it has sent `reads` requests; answers them and what it printed. */
  async function runTail(args: string[], values: Record<string, boolean>, terminal: boolean, reads = 2) {
    const job = command.toRequest(values, args) as AdminJob;
    const requests: AdminRequest[] = [];
    const stop = new AbortController();
    let output = '';
    await job(
      async (request) => {
        requests.push(request);
        const response = await admin(request.path);
        if (requests.length >= reads) stop.abort();
        return { status: response.statusCode, body: response.body };
      },
      { write: (text) => (output += text), signal: stop.signal, terminal },
    );
    return { requests, lines: output.split('\n').filter((line) => line !== '') };
  }

  it('polls the events after the last cursor and prints a line per event on a terminal', async () => {
    const team = await w.h.team();
    await tail(team.id);
    const emailId = await send(team, 'Tail me');
    await tailWhen(team.id, '', (p) => p.data.length > 0);
    const { requests, lines } = await runTail([String(team.id)], {}, true);
    expect(requests.map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(requests[0]!.path).toBe(`/teams/${team.id}/events?limit=10`);
    const newest = await tail(team.id, '?limit=10');
    expect(requests[1]!.path).toMatch(new RegExp(`^/teams/${team.id}/events\\?limit=100&after=\\d+\\.\\d+$`));
    expect(lines[0]).toBe(`Team ${team.id}'s events as they are recorded (Ctrl-C stops):`);
    expect(lines.slice(1)).toEqual(newest.data.map((e) => tailLine(e).trimEnd()));
    expect(lines[1]).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  email\\.queued +${emailId} +"Tail me" to reader@example\\.net$`),
    );
  });

  it('prints one JSON object per event with --json, and when stdout is not a terminal', async () => {
    const team = await w.h.team();
    await tail(team.id);
    const emailId = await send(team, 'Piped');
    await tailWhen(team.id, '', (p) => p.data.length > 0);
    for (const [values, terminal] of [
      [{ json: true }, true],
      [{}, false],
    ] as const) {
      const { lines } = await runTail([String(team.id)], values, terminal);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        type: 'email.queued',
        about: emailId,
        summary: '"Piped" to reader@example.net',
        event: { type: 'email.queued', data: { emailId, subject: 'Piped' } },
      });
    }
  });

  it("fails with the admin API's error for an unknown team", async () => {
    await expect(runTail(['999999999'], {}, true)).rejects.toThrow(/^NOT_FOUND: /);
  });
});

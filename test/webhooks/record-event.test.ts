// recordEvent, the seam every area uses: the payload is checked against the catalogue (a bad one
// throws and makes nothing), one call per ACTIVE webhook of the team subscribed to the type and the
// domain, in the caller's transaction (rolled back: no call), and the dispatchers are woken only when
// calls were made (the email path's NOTIFY too).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent, recordEvents, type EventData } from '../../src/webhooks/index.ts';
import { emails, type SendingTeam } from '../emails/support.ts';
import { createWebhook, startWebhookHarness, type WebhookHarness } from './support.ts';

let w: WebhookHarness;
beforeAll(async () => {
  w = await startWebhookHarness({ dispatch: false });
});
afterAll(async () => w?.close());

const db = () => w.h.t.deps.db;
const now = () => w.h.t.clock.now();

const SMS: EventData<'sms.sent'> = {
  id: 'sms_01',
  to: '+*******4567',
  status: 'sent',
  segments: 1,
  charge: { currency: 'USD', amount: '0.0075' },
  reason: null,
  createdAt: '2026-11-25T09:00:00.000Z',
  updatedAt: '2026-11-25T09:00:01.000Z',
};

const emailData = (domainId: number | null): EventData<'email.sent'> => ({
  emailId: 'em_x',
  domainId,
  campaignId: null,
  status: 'SENT',
  from: 'a@example.com',
  to: 'b@example.net',
  subject: 'S',
  emailCreatedAt: '2026-11-25T09:00:00.000Z',
  details: null,
});

async function callsByWebhook(teamId: number): Promise<Record<string, string[]>> {
  const rows = await db()
    .selectFrom('webhook_calls')
    .select(['webhook_id', 'type'])
    .where('team_id', '=', teamId)
    .orderBy('id')
    .execute();
  const out: Record<string, string[]> = {};
  for (const row of rows) (out[row.webhook_id] ??= []).push(row.type);
  return out;
}

async function hooks(team: SendingTeam, other: { id: number }) {
  const make = (body: Record<string, unknown>) => createWebhook(w, team.key, { url: w.url(), ...body });
  const all = await make({ eventTypes: [] });
  const sms = await make({ eventTypes: ['sms.sent', 'sms.failed'] });
  const emailSent = await make({ eventTypes: ['email.sent'] });
  const ourDomain = await make({ eventTypes: [], domainIds: [team.domain.id] });
  const otherDomain = await make({ eventTypes: [], domainIds: [other.id] });
  const paused = await make({ eventTypes: [] });
  expect((await w.request(team.key, 'POST', `/v1/webhooks/${paused.id}/status`, { status: 'PAUSED' })).statusCode).toBe(
    200,
  );
  return { all, sms, emailSent, ourDomain, otherDomain, paused };
}

describe('recordEvent', () => {
  it('a payload that does not match the catalogue throws and makes nothing', async () => {
    const team = await w.h.team();
    await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const record = (data: unknown) =>
      recordEvent(db(), { teamId: team.id, type: 'sms.sent', domainId: null, data: data as typeof SMS, at: now() });
    await expect(record({ ...SMS, to: '+15551234567' })).rejects.toThrow(/sms\.sent payload does not match/);
    await expect(record({ ...SMS, segments: undefined })).rejects.toThrow(/sms\.sent/);
    await expect(record({ ...SMS, charge: { currency: 'EUR', amount: '1' } })).rejects.toThrow(/sms\.sent/);
    expect(await callsByWebhook(team.id)).toEqual({});
  });

  it('one call per ACTIVE webhook subscribed to the type and the domain; the envelope as published', async () => {
    const team = await w.h.team({ plan: 'pro' });
    const other = await team.addDomain();
    const h = await hooks(team, other);
    const at = now();
    const made = await recordEvent(db(), { teamId: team.id, type: 'sms.sent', domainId: null, data: SMS, at });
    // No domain: only webhooks without a domainIds filter.
    expect(await callsByWebhook(team.id)).toEqual({ [h.all.id]: ['sms.sent'], [h.sms.id]: ['sms.sent'] });
    expect(made).toHaveLength(2);
    const call = await db()
      .selectFrom('webhook_calls')
      .selectAll()
      .where('id', '=', made[0]!)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(call.payload)).toEqual({ type: 'sms.sent', createdAt: at.toISOString(), data: SMS });
    expect(call).toMatchObject({ status: 'PENDING', attempt: 0, team_id: team.id });
    expect(call.next_attempt_at).toEqual(at);
    expect(call.id).toMatch(/^msg_[0-9a-z]{26}$/);

    await db().deleteFrom('webhook_calls').where('team_id', '=', team.id).execute();
    await recordEvent(db(), {
      teamId: team.id,
      type: 'email.sent',
      domainId: team.domain.id,
      data: emailData(team.domain.id),
      at,
    });
    expect(await callsByWebhook(team.id)).toEqual({
      [h.all.id]: ['email.sent'],
      [h.emailSent.id]: ['email.sent'],
      [h.ourDomain.id]: ['email.sent'],
    });
  });

  it('recordEvents: several events of several teams in one statement, each reaching its own subscribers', async () => {
    const team = await w.h.team({ plan: 'pro' });
    const other = await team.addDomain();
    const h = await hooks(team, other);
    const second = await w.h.team();
    const secondHook = await createWebhook(w, second.key, { url: w.url(), eventTypes: ['sms.delivered'] });
    // A millisecond apart: call ids sort by time, so the lists below read in event order.
    const at = (ms: number) => new Date(now().getTime() + ms);
    const made = await recordEvents(db(), [
      { teamId: team.id, type: 'sms.sent', domainId: null, data: SMS, at: at(0) },
      { teamId: second.id, type: 'sms.sent', domainId: null, data: SMS, at: at(1) },
      { teamId: second.id, type: 'sms.delivered', domainId: null, data: { ...SMS, status: 'delivered' }, at: at(2) },
      { teamId: team.id, type: 'email.sent', domainId: team.domain.id, data: emailData(team.domain.id), at: at(3) },
    ]);
    expect(await callsByWebhook(team.id)).toEqual({
      [h.all.id]: ['sms.sent', 'email.sent'],
      [h.sms.id]: ['sms.sent'],
      [h.emailSent.id]: ['email.sent'],
      [h.ourDomain.id]: ['email.sent'],
    });
    expect(await callsByWebhook(second.id)).toEqual({ [secondHook.id]: ['sms.delivered'] });
    expect(made).toHaveLength(6);
    // A bad payload anywhere makes nothing at all.
    await expect(
      recordEvents(db(), [
        { teamId: second.id, type: 'sms.delivered', domainId: null, data: SMS, at: at(4) },
        { teamId: second.id, type: 'sms.delivered', domainId: null, data: { ...SMS, to: '+15551234567' }, at: at(5) },
      ]),
    ).rejects.toThrow(/sms\.delivered payload does not match/);
    expect(await callsByWebhook(second.id)).toEqual({ [secondHook.id]: ['sms.delivered'] });
  });

  it("another team's event reaches none of this team's webhooks", async () => {
    const team = await w.h.team();
    const stranger = await w.h.team();
    await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    await recordEvent(db(), { teamId: stranger.id, type: 'sms.sent', domainId: null, data: SMS, at: now() });
    expect(await callsByWebhook(team.id)).toEqual({});
  });

  it("in the caller's transaction: rolled back, no call", async () => {
    const team = await w.h.team();
    await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    await expect(
      db()
        .transaction()
        .execute(async (tx) => {
          const made = await recordEvent(tx, {
            teamId: team.id,
            type: 'sms.failed',
            domainId: null,
            data: SMS,
            at: now(),
          });
          expect(made).toHaveLength(1);
          throw new Error('the write failed');
        }),
    ).rejects.toThrow('the write failed');
    expect(await callsByWebhook(team.id)).toEqual({});
    await db()
      .transaction()
      .execute((tx) => recordEvent(tx, { teamId: team.id, type: 'sms.failed', domainId: null, data: SMS, at: now() }));
    expect(Object.values(await callsByWebhook(team.id))).toEqual([['sms.failed']]);
  });
});

describe('waking the dispatchers', () => {
  it('a NOTIFY only when calls were made, from recordEvent and from the email path', async () => {
    // Work the earlier tests left to the harness's runner (notices, deliveries) could make calls, and
    // so a NOTIFY, while this test listens: let it finish first.
    await w.settle();
    const heard: string[] = [];
    const marker = 'every wake-up committed so far';
    let markerBack = Promise.withResolvers<void>();
    const stop = await w.h.t.deps.database.listen('herald_queue', (payload) => {
      if (payload === 'webhook-delivery') heard.push(payload);
      if (payload === marker) markerBack.resolve();
    });
    // PostgreSQL delivers notifications in commit order: once this one is back, every NOTIFY committed
    // before it has been heard.
    const heardSoFar = async () => {
      markerBack = Promise.withResolvers<void>();
      await sql`SELECT pg_notify('herald_queue', ${marker})`.execute(db());
      await markerBack.promise;
    };
    try {
      const quiet = await w.h.team();
      await recordEvent(db(), { teamId: quiet.id, type: 'sms.sent', domainId: null, data: SMS, at: now() });
      await emails(w.h.app, quiet.key).sent({ from: quiet.from(), to: 'q@example.net', subject: 'S', text: 'x' });
      await heardSoFar();
      expect(heard).toEqual([]);

      const team = await w.h.team();
      await createWebhook(w, team.key, { url: w.url(), eventTypes: ['email.queued'] });
      await emails(w.h.app, team.key).sent({ from: team.from(), to: 'n@example.net', subject: 'S', text: 'x' });
      await expect.poll(() => heard.length).toBeGreaterThan(0);
      heard.length = 0;
      await recordEvent(db(), { teamId: team.id, type: 'sms.sent', domainId: null, data: SMS, at: now() });
      await heardSoFar();
      expect(heard).toEqual([]); // subscribed to email.queued only: no call, no NOTIFY
      await createWebhook(w, team.key, { url: w.url(), eventTypes: ['sms.sent'] });
      await recordEvent(db(), { teamId: team.id, type: 'sms.sent', domainId: null, data: SMS, at: now() });
      await expect.poll(() => heard.length).toBeGreaterThan(0);
    } finally {
      await stop();
    }
  });
});

// The event catalogue against what webhooks receive: the email payload built in TypeScript
// (emailEventCall, from the email as stored) parses with the catalogue's schema for every email status, with exactly the
// schema's fields, so the builder and the schema cannot drift; the calls the real send and cancel
// paths make parse too; the SMS payload, built in code, is the API's view of the message in its
// envelope; the generated documentation lists every type.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMS_STATUSES } from '../../src/db/schema-sms.ts';
import { EMAIL_STATUSES } from '../../src/emails/schemas.ts';
import { queuedRow } from '../../src/sms/queue-sms.ts';
import type { PreparedSms } from '../../src/sms/prepare.ts';
import { smsView } from '../../src/sms/view.ts';
import { emailEventCall } from '../../src/emails/views.ts';
import { EmailEventData, emailEventType, eventEnvelope, isEventType } from '../../src/webhooks/event-catalogue.ts';
import { eventBody } from '../../src/webhooks/events.ts';
import { EVENT_TYPES, eventTableMarkdown, webhookEventsOpenApi } from '../../src/webhooks/index.ts';
import { emails, type SendingTeam } from '../emails/support.ts';
import { callsOf, createWebhook, startWebhookHarness, type WebhookHarness } from './support.ts';

let w: WebhookHarness;
let team: SendingTeam;
beforeAll(async () => {
  w = await startWebhookHarness({ dispatch: false });
  team = await w.h.team();
});
afterAll(async () => w?.close());

/** What an event of each kind carries in `details` (null for those that carry nothing). */
const DETAILS: Record<string, unknown> = {
  SCHEDULED: { scheduledAt: '2026-11-25T10:00:00.000Z' },
  SENT: { response: '250 2.0.0 OK', recipients: ['a@example.net'] },
  DELIVERY_DELAYED: { recipient: 'a@example.net', status: '4.2.2', reason: 'mailbox full' },
  BOUNCED: { recipient: 'a@example.net', status: '5.1.1', reason: 'no such user' },
  OPENED: { recipient: 'a@example.net', userAgent: 'Mail/1.0' },
  CLICKED: { link: 'https://example.com/', userAgent: null },
  FAILED: { reason: 'boom' },
};

describe('the email payload built in TypeScript', () => {
  it('parses with the catalogue for every email status, with exactly its fields', async () => {
    const emailId = await emails(w.h.app, team.key).sent({
      from: team.from(),
      to: ['a@example.net', 'b@example.net'],
      subject: 'Catalogue',
      text: 'x',
    });
    const email = await w.h.t.deps.db
      .selectFrom('emails')
      .select(['id', 'team_id', 'domain_id', 'campaign_id', 'from', 'to', 'subject', 'created_at'])
      .where('id', '=', emailId)
      .executeTakeFirstOrThrow();
    for (const status of EMAIL_STATUSES) {
      const details = DETAILS[status] ?? null;
      const { type, payload, domain_id } = emailEventCall(email, status, details, new Date('2026-11-25T09:00:00.123Z'));
      expect(domain_id).toBe(team.domain.id);
      expect(type).toBe(emailEventType(status));
      expect(isEventType(type)).toBe(true);
      const body = JSON.parse(payload);
      const parsed = eventEnvelope(emailEventType(status)).parse(body);
      expect(parsed).toEqual(body);
      expect(Object.keys(body).sort()).toEqual(['createdAt', 'data', 'type']);
      expect(Object.keys(body.data).sort()).toEqual(Object.keys(EmailEventData.shape).sort());
      expect(body).toMatchObject({
        createdAt: '2026-11-25T09:00:00.123Z',
        data: { emailId, status, to: ['a@example.net', 'b@example.net'], details },
      });
    }
  });

  it('the calls of the send and cancel paths parse with the catalogue', async () => {
    const team = await w.h.team();
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const mail = emails(w.h.app, team.key);
    const scheduledAt = new Date(w.h.t.clock.now().getTime() + 3_600_000).toISOString();
    const id = await mail.sent({ from: team.from(), to: 'c@example.net', subject: 'Later', text: 'x', scheduledAt });
    expect((await mail.cancel(id)).statusCode).toBe(200);
    const calls = await callsOf(w, team.key, hook.id);
    expect(calls.map((c) => c.type).sort()).toEqual(['email.cancelled', 'email.scheduled']);
    for (const call of calls) {
      const detail = (await w.request(team.key, 'GET', `/v1/webhooks/calls/${call.id}`)).json();
      const body = JSON.parse(detail.payload);
      expect(eventEnvelope(call.type as 'email.scheduled').parse(body)).toEqual(body);
      expect(body.data).toMatchObject({ emailId: id, domainId: team.domain.id, subject: 'Later' });
    }
  });
});

describe('the SMS payload built in code', () => {
  it("is the API view in its envelope, with the catalogue's fields, for every status, currency, charge, number and reason", () => {
    const at = new Date('2026-11-25T09:00:00.123Z');
    const cases = [
      { to: '+14155550123', currency: 'USD', charge: 0n, reason: null, shown: ['+*******0123', '0.00'] },
      {
        to: '+2348012345678',
        currency: 'NGN',
        charge: 123456n,
        reason: ['unreachable', 'No answer'],
        shown: ['+*********5678', '1234.56'],
      },
      { to: '+254712345678', currency: 'KES', charge: 5n, reason: ['unknown', null], shown: ['+********5678', '0.05'] },
      { to: '+4420', currency: 'USD', charge: 100n, reason: null, shown: ['+4420', '1.00'] },
      { to: '+123', currency: 'USD', charge: 1n, reason: null, shown: ['+123', '0.01'] },
    ] as const;
    for (const [n, c] of cases.entries()) {
      const sms: PreparedSms = {
        id: `sms_catalogue_${n}`,
        teamId: team.id,
        keyId: null,
        to: c.to,
        toPrefix: c.to.slice(0, -4),
        country: 'US',
        senderId: 'Herald',
        text: 'x',
        encoding: 'GSM-7',
        segments: n + 1,
        currency: c.currency,
        clientIpHash: null,
        riskScore: 0,
        now: new Date(at.getTime() - 60_000),
      };
      const row = {
        ...queuedRow(sms, c.charge, null),
        reason_code: c.reason?.[0] ?? null,
        reason_message: c.reason?.[1] ?? null,
        updated_at: at,
      };
      // Every status after queued has its event.
      for (const status of SMS_STATUSES.filter((s) => s !== 'queued')) {
        const type = `sms.${status}` as const;
        const body = JSON.parse(eventBody(type, at, smsView({ ...row, status })));
        expect(eventEnvelope(type).parse(body)).toEqual(body);
        expect(body).toEqual({
          type,
          createdAt: at.toISOString(),
          data: {
            id: sms.id,
            to: c.shown[0],
            status,
            segments: n + 1,
            charge: { currency: c.currency, amount: c.shown[1] },
            reason: c.reason === null ? null : { code: c.reason[0], message: c.reason[1] ?? '' },
            createdAt: sms.now.toISOString(),
            updatedAt: at.toISOString(),
          },
        });
      }
    }
  });
});

describe('the documentation', () => {
  it('the OpenAPI document and docs/webhooks.md list every event type of the catalogue', () => {
    const { webhooks, schemas } = webhookEventsOpenApi();
    expect(Object.keys(webhooks)).toEqual(EVENT_TYPES);
    expect(Object.keys(schemas).sort()).toEqual(
      [
        'EmailEventData',
        'InboundEventData',
        'JourneyRunEventData',
        'CampaignEventData',
        'SmsEventData',
        'TestEventData',
        'WebhookEventPayload',
      ].sort(),
    );
    const doc = fs.readFileSync(path.join(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
    expect(doc).toContain(eventTableMarkdown());
    for (const type of [
      'sms.sent',
      'sms.delivered',
      'sms.failed',
      'sms.rejected',
      'webhook.test',
      'email.opened',
      'journey.run.completed',
      'journey.run.exited',
      'campaign.started',
      'campaign.paused',
      'campaign.sent',
      'email.received',
    ])
      expect(EVENT_TYPES).toContain(type);
  });
});

// The webhook calls of the set-based writers of email events (late events such as clicks and
// reports, first opens, a delivery attempt, the queue's FAILED): one per event the statement wrote,
// per subscribed webhook (the domain filter read from the email), none for an event not written, and
// each body the catalogue's envelope with the email as stored (payloads built in TypeScript).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailStatus } from '../../src/db/schema.ts';
import { failDeliveries, recordAttempt } from '../../src/emails/delivery-write.ts';
import { recordEmailEvents, recordFirstOpens, recordLaterOpens } from '../../src/emails/index.ts';
import { eventEnvelope, type EmailEventType } from '../../src/webhooks/event-catalogue.ts';
import { createWebhook, startWebhookHarness, type WebhookHarness } from '../webhooks/support.ts';
import { emails, type SendingTeam } from './support.ts';
import { sessionBounces } from '../../src/feedback/index.ts';

let w: WebhookHarness;
let team: SendingTeam;
let otherDomainHook: string;
beforeAll(async () => {
  w = await startWebhookHarness({ dispatch: false });
  team = await w.h.team();
  const other = await team.addDomain();
  await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
  otherDomainHook = (await createWebhook(w, team.key, { url: w.url(), eventTypes: [], domainIds: [other.id] })).id;
});
afterAll(async () => w?.close());

const db = () => w.h.t.deps.db;
const at = new Date('2026-05-04T10:00:00.123Z');

async function email(status: EmailStatus, to: string | string[] = 'reader@example.com') {
  const id = await emails(w.h.app, team.key).sent({ from: team.from(), to, subject: 'Calls', text: 'x' });
  await db().updateTable('emails').set({ status }).where('id', '=', id).execute();
  return db().selectFrom('emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The bodies of the email's calls other than email.queued (the send's), by type (ids order by time, then at random). */
async function bodiesOf(emailId: string): Promise<unknown[]> {
  const { rows } = await sql<{ payload: string; webhook_id: string }>`
    SELECT payload, webhook_id FROM webhook_calls
    WHERE team_id = ${team.id}::int AND payload::jsonb->'data'->>'emailId' = ${emailId} AND type <> 'email.queued'
    ORDER BY type`.execute(db());
  expect(rows.filter((r) => r.webhook_id === otherDomainHook)).toEqual([]);
  return rows.map((r) => {
    const body = JSON.parse(r.payload) as { type: EmailEventType };
    expect(eventEnvelope(body.type).parse(body)).toEqual(body);
    return body;
  });
}

const bodyOf = (row: Awaited<ReturnType<typeof email>>, status: EmailStatus, details: unknown, when = at) => ({
  type: `email.${status.toLowerCase()}`,
  createdAt: when.toISOString(),
  data: {
    emailId: row.id,
    domainId: team.domain.id,
    campaignId: null,
    status,
    from: team.from(),
    to: row.to,
    subject: 'Calls',
    emailCreatedAt: row.created_at.toISOString(),
    details,
  },
});

describe('the calls of the set-based writers of email events', () => {
  it('late events: one call per event written, read from the email or given by the caller', async () => {
    const clicked = await email('DELIVERED', ['a@example.com', 'b@example.com']);
    const reported = await email('SENT');
    const click = { link: 'https://example.com/', userAgent: 'UA' };
    const bounce = { recipient: 'reader@example.com', status: '5.1.1' };
    const recorded = await recordEmailEvents(db(), [
      { teamId: team.id, emailId: clicked.id, status: 'CLICKED', data: click, at },
      { teamId: team.id, emailId: reported.id, status: 'BOUNCED', data: bounce, at, email: reported },
      { teamId: team.id + 1_000_000, emailId: 'em_not_this_team', status: 'CLICKED', data: null, at },
    ]);
    expect(recorded.map((r) => r.found)).toEqual([true, true, false]);
    expect(await bodiesOf(clicked.id)).toEqual([bodyOf(clicked, 'CLICKED', click)]);
    expect(await bodiesOf(reported.id)).toEqual([bodyOf(reported, 'BOUNCED', bounce)]);
  });

  it("first opens: the copy's one OPENED call; a later open makes none", async () => {
    const row = await email('DELIVERED');
    const open = { teamId: team.id, emailId: row.id, recipient: null, userAgent: 'Mail/1', at };
    for (const batch of [[open], [{ ...open, at: new Date(at.getTime() + 60_000) }]]) {
      const firsts = await recordLaterOpens(db(), batch);
      if (firsts.length > 0) await recordFirstOpens(db(), firsts);
    }
    expect(await bodiesOf(row.id)).toEqual([bodyOf(row, 'OPENED', { userAgent: 'Mail/1' })]);
  });

  it("a delivery attempt's events while the lease is its own, and the queue's FAILED", async () => {
    const row = await email('QUEUED');
    const lease = new Date(at.getTime() + 20_000);
    await db().updateTable('emails').set({ lease_until: lease }).where('id', '=', row.id).execute();
    const attempt = (leaseUntil: Date) =>
      recordAttempt(
        db(),
        row,
        leaseUntil,
        at,
        {
          status: null,
          messageId: null,
          events: [
            { status: 'BOUNCED', data: { recipient: 'x@example.com' } },
            { status: 'DELIVERY_DELAYED', data: null },
          ],
        },
        sessionBounces,
      );
    expect(await attempt(new Date(lease.getTime() + 1))).toBe(false);
    expect(await bodiesOf(row.id)).toEqual([]);
    expect(await attempt(lease)).toBe(true);
    await failDeliveries(db(), [{ email: row, error: 'gave up' }], lease, at);
    expect(await bodiesOf(row.id)).toEqual([
      bodyOf(row, 'BOUNCED', { recipient: 'x@example.com' }),
      bodyOf(row, 'DELIVERY_DELAYED', null),
      bodyOf(row, 'FAILED', { reason: 'gave up' }),
    ]);
  });
});

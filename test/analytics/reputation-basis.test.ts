// Reputation rates under the relay and log transports (issue 22): those transports write SENT and
// DELIVERED only when a delivery report comes back, so the rates divide by emails sent until the
// scope asked for (team or domain) has a delivery, and by delivered from the first one on. Events
// are real email_events rows, counted by the trigger of 0010_analytics.sql.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEmailEvent } from '../../src/emails/email-events.ts';
import type { EmailStatus } from '../../src/db/schema.ts';
import { emails, startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import { bearer } from '../support/factory.ts';

let h: EmailHarness;

beforeAll(async () => {
  h = await startEmailHarness();
});
afterAll(async () => h?.close());

async function sendMany(team: SendingTeam, count: number, from = team.from()): Promise<string[]> {
  const send = emails(h.app, team.key);
  const ids: string[] = [];
  for (let n = 0; n < count; n++)
    ids.push(await send.sent({ from, to: `r${n}@example.test`, subject: 's', text: 't' }));
  return ids;
}

async function record(team: SendingTeam, id: string, status: EmailStatus): Promise<void> {
  const recorded = await recordEmailEvent(h.t.deps.db, team.id, id, status, null, h.t.clock.now());
  expect(recorded.found).toBe(true);
}

async function reputation(team: SendingTeam, query = ''): Promise<Record<string, number>> {
  const response = await h.app.inject({
    method: 'GET',
    url: `/api/v1/analytics/reputation-metrics${query}`,
    headers: bearer(team.key),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('reputation rates without delivery reports', () => {
  it('divide by emails sent while nothing was delivered, by delivered from the first delivery on', async () => {
    const team = await h.team();
    const ids = await sendMany(team, 4);
    for (const id of ids) await record(team, id, 'SENT'); // the relay took all four
    await record(team, ids[0]!, 'BOUNCED'); // a bounce report came back later
    await record(team, ids[1]!, 'COMPLAINED');
    expect(await reputation(team)).toEqual({
      delivered: 0,
      hardBounced: 1,
      complained: 1,
      bounceRate: 0.25,
      complaintRate: 0.25,
    });

    // One delivery report: delivered is the basis now, as with direct delivery.
    await record(team, ids[2]!, 'DELIVERED');
    expect(await reputation(team)).toEqual({
      delivered: 1,
      hardBounced: 1,
      complained: 1,
      bounceRate: 1,
      complaintRate: 1,
    });
  });

  it('a hard bounce of the only email sent reads 100%, not 0%', async () => {
    const team = await h.team();
    const [id] = await sendMany(team, 1);
    await record(team, id!, 'SENT');
    await record(team, id!, 'BOUNCED');
    expect(await reputation(team)).toMatchObject({ delivered: 0, hardBounced: 1, bounceRate: 1, complaintRate: 0 });
  });

  it('queued mail that was never sent is no basis: rates stay 0 rather than dividing by 0', async () => {
    const team = await h.team();
    const [id] = await sendMany(team, 1);
    // Refused by the relay before it took the mail: BOUNCED without SENT, so nothing was sent.
    await record(team, id!, 'BOUNCED');
    expect(await reputation(team)).toEqual({
      delivered: 0,
      hardBounced: 1,
      complained: 0,
      bounceRate: 0,
      complaintRate: 0,
    });
  });

  it('the basis is chosen per scope: a domain without deliveries uses its sent mail', async () => {
    const team = await h.team();
    const relayed = await team.addDomain();
    const [direct] = await sendMany(team, 1);
    await record(team, direct!, 'DELIVERED');
    const viaRelay = await sendMany(team, 2, `hi@${relayed.name}`);
    for (const id of viaRelay) await record(team, id, 'SENT');
    await record(team, viaRelay[0]!, 'BOUNCED');

    // The domain on its own: no delivery, so 1 bounce of 2 sent.
    expect(await reputation(team, `?domainId=${relayed.id}`)).toMatchObject({ delivered: 0, bounceRate: 0.5 });
    // The team as a whole has one delivery: 1 bounce of 1 delivered.
    expect(await reputation(team)).toMatchObject({ delivered: 1, hardBounced: 1, bounceRate: 1 });
  });
});

// HERALD_MAIL_TRANSPORT=log (the default): the delivery worker hands each message to the outbox
// instead of the network; the email is SENT and the stored message is readable through the admin API.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueRunner } from '../../src/queue/index.ts';
import { TEST_ADMIN_TOKEN } from '../support/app.ts';
import {
  emailJson,
  expectDkimPass,
  harnessDnsServer,
  MAIL_DOMAIN,
  startDeliveryRunner,
  uniqueRecipient,
  waitForStatus,
} from './delivery-support.ts';
import { emails, startEmailHarness, type EmailHarness } from './support.ts';

let h: EmailHarness;
let runner: QueueRunner;

beforeAll(async () => {
  h = await startEmailHarness();
  expect(h.t.deps.mailTransport.kind).toBe('log');
  runner = await startDeliveryRunner(h, h.t.deps.mailTransport);
});
afterAll(async () => {
  await runner?.stop();
  await h?.close();
});

interface OutboxJson {
  id: string;
  teamId: number | null;
  emailId: string | null;
  envelope: { from: string; to: string[] };
  subject: string | null;
  createdAt: string;
  raw: string;
}

const outbox = async (query: string) => {
  const response = await h.app.inject({
    method: 'GET',
    url: `/admin/v1/outbox${query}`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as OutboxJson[];
};

describe('log transport', () => {
  it('stores the message in the outbox, marks the email SENT, and GET /admin/v1/outbox reads it', async () => {
    const team = await h.team();
    const [to, bcc] = [uniqueRecipient('log'), uniqueRecipient('logbcc')];
    const id = await emails(h.app, team.key).sent({
      from: team.from(),
      to,
      bcc,
      subject: 'Logged',
      text: 'kept, not sent',
    });
    await waitForStatus(h, id, 'SENT');
    expect((await emailJson(h, team.key, id)).emailEvents.map((e) => e.status)).toEqual(['QUEUED', 'SENT']);

    const [stored, ...rest] = await outbox(`?teamId=${team.id}`);
    expect(rest).toHaveLength(0);
    expect(stored).toMatchObject({ teamId: team.id, emailId: id, subject: 'Logged', envelope: { to: [to, bcc] } });
    expect(stored!.envelope.from).toMatch(/^bounce\+/);
    expect(new Date(stored!.createdAt).toISOString()).toBe(stored!.createdAt);
    const raw = Buffer.from(stored!.raw);
    // mailauth's verifier, looking the key up on the DNS server the domain was verified against.
    await expectDkimPass(raw, harnessDnsServer(h), `outbox message of ${id}`);
    const parsed = await simpleParser(raw);
    expect(parsed.messageId).toBe(`<${id}@${MAIL_DOMAIN}>`);
    expect(parsed.text?.trim()).toBe('kept, not sent');
  });

  it('lists newest first and honours limit; another team sees none of it', async () => {
    const team = await h.team();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const id = await emails(h.app, team.key).sent({
        from: team.from(),
        to: uniqueRecipient(`order${n}`),
        subject: `Order ${n}`,
        text: 'hi',
      });
      await waitForStatus(h, id, 'SENT');
      ids.push(id);
      h.t.clock.advance(1000);
    }
    expect((await outbox(`?teamId=${team.id}`)).map((m) => m.emailId)).toEqual([...ids].reverse());
    expect((await outbox(`?teamId=${team.id}&limit=2`)).map((m) => m.emailId)).toEqual([ids[2], ids[1]]);
    for (const stored of await outbox(`?teamId=${team.id}`))
      await expectDkimPass(Buffer.from(stored.raw), harnessDnsServer(h), `outbox message of ${stored.emailId}`);
    const other = await h.team();
    expect(await outbox(`?teamId=${other.id}`)).toEqual([]);
    expect((await outbox('?limit=100')).length).toBeGreaterThanOrEqual(3);
  });
});

// The delivery worker through the API: emails sent with POST /v1/emails reach a real SMTP server (the
// sink, as the relay), signed with the domain's DKIM key, with a return path naming the email, Bcc in
// the envelope only; 4xx answers are retried after the clock moves, 5xx ones bounce the recipient;
// scheduled emails wait for their time, cancelled ones never go; two runners send each email once.
// Every message the sink receives is DKIM-verified by mailauth against the harness's DNS server.
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MailTransport } from '../../src/adapters/mail-transport/index.ts';
import { DELIVERY_BACKOFF, DELIVERY_MAX_ATTEMPTS } from '../../src/emails/delivery.ts';
import { retryDelayMs, type QueueRunner } from '../../src/queue/index.ts';
import { verifyDkimWithDns } from '../support/dkim-verify.ts';
import type { SinkMessage, SmtpSink } from '../support/smtp-sink.ts';
import {
  emailJson,
  harnessDnsServer,
  latestStatus,
  MAIL_DOMAIN,
  publishedDkimKey,
  startDeliveryRunner,
  startRelayDelivery,
  uniqueRecipient,
  waitForStatus,
  type RelayDelivery,
} from './delivery-support.ts';
import { emails, type EmailHarness, type SendingTeam } from './support.ts';

let d: RelayDelivery;
let h: EmailHarness;
let sink: SmtpSink;
let relay: MailTransport;
let runner: QueueRunner;
let team: SendingTeam;

beforeAll(async () => {
  d = await startRelayDelivery();
  ({ h, sink, relay, runner, team } = d);
});
// Whatever reached the sink during a test must pass DKIM, looked up over DNS as a receiver would.
afterEach(async () => {
  await d.auditDkim();
});
afterAll(async () => d?.close());

/** The sink's messages whose return path names `emailId`. */
const messagesOf = (emailId: string): SinkMessage[] => d.messagesOf(emailId);
const statuses = (events: { status: string }[]) => events.map((e) => e.status);

describe('email delivery through an SMTP relay', () => {
  it('delivers a queued email: DKIM verifies, return path names it, Bcc only in the envelope, QUEUED→SENT', async () => {
    const [to, cc, bcc] = [uniqueRecipient('to'), uniqueRecipient('cc'), uniqueRecipient('bcc')];
    const id = await emails(h.app, team.key).sent({
      from: `Acme <${team.from()}>`,
      to,
      cc: [cc],
      bcc: [bcc],
      subject: 'Your receipt',
      html: '<p>Thanks</p>',
      text: 'Thanks',
      headers: { 'X-Entity-Ref': 'r-1' },
      attachments: [{ filename: 'receipt.txt', content: Buffer.from('paid in full').toString('base64') }],
    });
    await waitForStatus(h, id, 'SENT');
    const [message] = messagesOf(id);
    expect(messagesOf(id)).toHaveLength(1);
    expect(message!.envelope.to.sort()).toEqual([to, cc, bcc].sort());
    const dkim = await verifyDkimWithDns(message!.raw, harnessDnsServer(h));
    expect(dkim.statuses).toEqual(['pass']);
    expect(dkim.results[0]).toMatchObject({
      signingDomain: team.domain.name,
      selector: publishedDkimKey(team.domain).selector,
    });
    expect(message!.envelope.from).toMatch(new RegExp(`@send\\.${team.domain.name.replace(/\./g, '\\.')}$`, 'i'));
    const parsed = await simpleParser(message!.raw);
    expect(parsed.messageId).toBe(`<${id}@${MAIL_DOMAIN}>`);
    expect(parsed.subject).toBe('Your receipt');
    expect(parsed.headers.get('x-entity-ref')).toBe('r-1');
    expect(parsed.headers.has('bcc')).toBe(false);
    expect(parsed.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([
      ['receipt.txt', 'paid in full'],
    ]);
    expect(message!.raw.toString('utf8')).not.toContain(bcc);
    const email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'SENT']);
    const stored = await h.t.deps.db
      .selectFrom('emails')
      .select(['message_id', 'lease_until'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ message_id: `<${id}@${MAIL_DOMAIN}>`, lease_until: null });
  });

  it('retries after a 4xx: DELIVERY_DELAYED first, SENT once the clock has moved', async () => {
    const to = uniqueRecipient('later');
    sink.respond(to, { stage: 'rcpt', code: 451, message: 'try again later' });
    const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'Deferred', text: 'hi' });
    await expect
      .poll(async () => statuses((await emailJson(h, team.key, id)).emailEvents), { timeout: 10_000, interval: 20 })
      .toContain('DELIVERY_DELAYED');
    expect(await latestStatus(h, id)).toBe('QUEUED');
    expect(messagesOf(id)).toHaveLength(0);
    sink.respond(to, { stage: 'rcpt', code: 250 });
    // The first retry is due 5 min ±20% later.
    h.t.clock.advance(7 * 60_000);
    runner.wake();
    await waitForStatus(h, id, 'SENT');
    expect(messagesOf(id)).toHaveLength(1);
    const email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'DELIVERY_DELAYED', 'SENT']);
    expect(email.emailEvents[1]!.data).toMatchObject({ recipients: [to], accepted: [] });
  });

  it('bounces the recipient a 5xx refuses and sends to the others', async () => {
    const [good, bad] = [uniqueRecipient('good'), uniqueRecipient('bad')];
    sink.respond(bad, { stage: 'rcpt', code: 550, message: 'no such user' });
    const id = await emails(h.app, team.key).sent({ from: team.from(), to: [good, bad], subject: 'Mixed', text: 'hi' });
    await waitForStatus(h, id, 'SENT');
    expect(messagesOf(id).map((m) => m.envelope.to)).toEqual([[good]]);
    const email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'BOUNCED', 'SENT']);
    expect(email.emailEvents[1]!.data).toMatchObject({ recipient: bad, responseCode: 550 });
  });

  it('bounces an email whose only recipient is refused with 5xx', async () => {
    const bad = uniqueRecipient('gone');
    sink.respond(bad, { stage: 'rcpt', code: 550, message: 'no such user' });
    const id = await emails(h.app, team.key).sent({ from: team.from(), to: bad, subject: 'Gone', text: 'hi' });
    await waitForStatus(h, id, 'BOUNCED');
    expect(statuses((await emailJson(h, team.key, id)).emailEvents)).toEqual(['QUEUED', 'BOUNCED']);
  });

  it('skips a recipient suppressed after the email was queued', async () => {
    const [kept, dropped] = [uniqueRecipient('kept'), uniqueRecipient('dropped')];
    // Scheduled, so it is still waiting when the suppression is added.
    const scheduledAt = new Date(h.t.clock.now().getTime() + 60 * 60_000).toISOString();
    const id = await emails(h.app, team.key).sent({
      from: team.from(),
      to: [kept, dropped],
      subject: 'Later',
      text: 'hi',
      scheduledAt,
    });
    await h.t.deps.db
      .insertInto('suppressions')
      .values({ team_id: team.id, email: dropped, reason: 'MANUAL', email_id: null, created_at: h.t.clock.now() })
      .execute();
    h.t.clock.advance(61 * 60_000);
    runner.wake();
    await waitForStatus(h, id, 'SENT');
    expect(messagesOf(id).map((m) => m.envelope.to)).toEqual([[kept]]);
    const email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual(['SCHEDULED', 'SUPPRESSED', 'SENT']);
    expect(email.emailEvents[1]!.data).toEqual({ recipients: [dropped] });
  });
});

describe('giving up', () => {
  it('spreads its attempts over about 48 hours', () => {
    // Without jitter (random 0.5 is the middle of ±20%): the waits between the attempts.
    let total = 0;
    for (let n = 1; n < DELIVERY_MAX_ATTEMPTS; n++) total += retryDelayMs(n, DELIVERY_BACKOFF, () => 0.5);
    expect(total / 3_600_000).toBeGreaterThan(45);
    expect(total / 3_600_000).toBeLessThan(52);
  });

  it('bounces a recipient still deferred after about 48 hours of retries, one DELIVERY_DELAYED per attempt', async () => {
    const to = uniqueRecipient('never');
    sink.respond(to, { stage: 'rcpt', code: 451, message: 'mailbox busy' });
    const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'Stuck', text: 'hi' });
    const row = async () =>
      await h.t.deps.db
        .selectFrom('emails')
        .select(['attempts', 'lease_until', 'run_at', 'status'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const start = h.t.clock.now().getTime();
    for (let n = 1; ; n++) {
      await expect
        .poll(
          async () => {
            const r = await row();
            return r.attempts >= n && r.lease_until === null;
          },
          { timeout: 10_000, interval: 20 },
        )
        .toBe(true);
      const r = await row();
      if (r.status !== 'QUEUED') break;
      expect(n).toBeLessThan(DELIVERY_MAX_ATTEMPTS);
      // To the retry's due time: 5 min doubling to the 4 h cap, each ±20%.
      h.t.clock.set(r.run_at);
      runner.wake();
    }
    await waitForStatus(h, id, 'BOUNCED');
    const attempts = (await row()).attempts;
    // About 49 h of delays, but never past the 48 h horizon.
    expect(h.t.clock.now().getTime() - start).toBeGreaterThan(40 * 60 * 60_000);
    expect(attempts).toBeGreaterThan(12);
    const email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual([
      'QUEUED',
      ...Array.from({ length: attempts - 1 }, () => 'DELIVERY_DELAYED'),
      'BOUNCED',
    ]);
    expect(email.emailEvents.at(-1)!.data).toMatchObject({ recipient: to, reason: expect.stringMatching(/48 hours/) });
    expect(messagesOf(id)).toHaveLength(0);
  });
});

describe('scheduled emails', () => {
  it('is not sent before scheduledAt and is sent once after', async () => {
    const to = uniqueRecipient('scheduled');
    const scheduledAt = new Date(h.t.clock.now().getTime() + 30 * 60_000).toISOString();
    const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'Later', text: 'hi', scheduledAt });
    await runner.idle();
    expect(await latestStatus(h, id)).toBe('SCHEDULED');
    expect(messagesOf(id)).toHaveLength(0);
    h.t.clock.advance(31 * 60_000);
    runner.wake();
    await waitForStatus(h, id, 'SENT');
    await runner.idle();
    expect(messagesOf(id)).toHaveLength(1);
    expect(statuses((await emailJson(h, team.key, id)).emailEvents)).toEqual(['SCHEDULED', 'SENT']);
  });

  it('never sends a cancelled scheduled email', async () => {
    const to = uniqueRecipient('cancelled');
    const scheduledAt = new Date(h.t.clock.now().getTime() + 30 * 60_000).toISOString();
    const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'Never', text: 'hi', scheduledAt });
    expect((await emails(h.app, team.key).cancel(id)).statusCode).toBe(200);
    h.t.clock.advance(31 * 60_000);
    await runner.idle();
    expect(await latestStatus(h, id)).toBe('CANCELLED');
    expect(messagesOf(id)).toHaveLength(0);
  });
});

describe('exactly once', () => {
  it('two runners on the same database send each email once', async () => {
    const second = await startDeliveryRunner(h, relay);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++)
        ids.push(
          await emails(h.app, team.key).sent({
            from: team.from(),
            to: uniqueRecipient(`once${i}`),
            subject: `Once ${i}`,
            text: 'hi',
          }),
        );
      runner.wake();
      second.wake();
      for (const id of ids) await waitForStatus(h, id, 'SENT');
      await Promise.all([runner.idle(), second.idle()]);
      expect(ids.map((id) => messagesOf(id).length)).toEqual(ids.map(() => 1));
    } finally {
      await second.stop();
    }
  });
});

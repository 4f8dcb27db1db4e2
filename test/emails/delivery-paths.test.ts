// Delivery paths with no other test: the `direct` transport as an operator configures it
// (HERALD_MAIL_TRANSPORT=direct, HERALD_DNS_SERVERS and HERALD_MX_PORT on loopback) driven by the
// delivery worker: 250 → DELIVERED, 5xx → BOUNCED, 4xx → QUEUED with one DELIVERY_DELAYED; a reply's
// In-Reply-To/References naming the Message-ID the receiver saw (and never another team's); and a
// domain deleted while its email waits → FAILED, nothing sent. Every message the sink receives is
// DKIM-verified by mailauth against the same DNS server the transport asks for MX records.
import { simpleParser } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import type { TestDnsServer } from '../support/dns-server.ts';
import type { SmtpSink } from '../support/smtp-sink.ts';
import {
  emailJson,
  expectDkimPass,
  latestStatus,
  MAIL_DOMAIN,
  startDeliveryRunner,
  waitForStatus,
} from './delivery-support.ts';
import { useDirectBed } from './direct-bed.ts';
import { call, emails, type EmailHarness, type SendingTeam } from './support.ts';

const bed = useDirectBed('paths');
let h: EmailHarness;
let dns: TestDnsServer;
let sink: SmtpSink;
let direct: TestApp;
let team: SendingTeam;
beforeAll(() => {
  ({ h, dns, sink, direct, team } = bed);
});
const { recipient, sendingTeam, messagesOf, rcptDomain } = bed;

const statuses = (events: { status: string }[]) => events.map((e) => e.status);
const attemptsOf = async (id: string) =>
  h.t.deps.db.selectFrom('emails').select(['attempts', 'lease_until']).where('id', '=', id).executeTakeFirstOrThrow();
/** Waits until the worker has finished attempt `count` of the email (lease released). */
const waitForAttempt = (id: string, count: number) =>
  expect
    .poll(
      async () => {
        const row = await attemptsOf(id);
        return row.attempts >= count && row.lease_until === null;
      },
      { timeout: 10_000, interval: 20 },
    )
    .toBe(true);

describe('direct transport through the delivery worker', () => {
  it('delivers to the MX found in DNS: DELIVERED with a DELIVERED event, DKIM passes', async () => {
    const to = recipient('ann');
    const id = await emails(h.app, team.key).sent({
      from: `Acme <${team.from()}>`,
      to,
      subject: 'Direct',
      html: '<p>Hi</p>',
      text: 'Hi',
    });
    await waitForStatus(h, id, 'DELIVERED');
    const email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'DELIVERED']);
    const [message, ...more] = messagesOf(id);
    expect(more).toHaveLength(0);
    expect(message!.envelope.to).toEqual([to]);
    expect(message!.heloName).toBe(MAIL_DOMAIN);
    // STARTTLS offered by the sink is taken.
    expect(message!.secure).toBe(true);
    await expectDkimPass(message!.raw, dns.address, `email ${id}`);
    expect(dns.queries).toContain(`MX ${rcptDomain} over udp`);
    expect(
      dns.queries.some((q) =>
        q.startsWith(`TXT ${team.domain.dnsRecords.find((r) => r.name.includes('._domainkey.'))!.name}`),
      ),
    ).toBe(true);
    expect((await simpleParser(message!.raw)).messageId).toBe(`<${id}@${MAIL_DOMAIN}>`);
  });

  it('bounces the recipient the MX refuses with 5xx and delivers to the other', async () => {
    const [good, bad] = [recipient('good'), recipient('bad')];
    sink.respond(bad, { stage: 'rcpt', code: 550, message: '5.1.1 no such user' });
    const id = await emails(h.app, team.key).sent({ from: team.from(), to: [good, bad], subject: 'Mixed', text: 'hi' });
    await waitForStatus(h, id, 'DELIVERED');
    expect(messagesOf(id).map((m) => m.envelope.to)).toEqual([[good]]);
    const email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'BOUNCED', 'DELIVERED']);
    expect(email.emailEvents[1]!.data).toMatchObject({
      recipient: bad,
      responseCode: 550,
      response: expect.stringMatching(/no such user/),
    });
  });

  it('bounces an email whose only recipient the MX refuses with 5xx', async () => {
    const bad = recipient('gone');
    sink.respond(bad, { stage: 'rcpt', code: 550, message: '5.1.1 no such user' });
    const id = await emails(h.app, team.key).sent({ from: team.from(), to: bad, subject: 'Gone', text: 'hi' });
    await waitForStatus(h, id, 'BOUNCED');
    const email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'BOUNCED']);
    expect(email.emailEvents[1]!.data).toMatchObject({ recipient: bad, responseCode: 550 });
    expect(messagesOf(id)).toHaveLength(0);
  });

  it('shows an email the MX defers with 4xx as DELIVERY_DELAYED, one event per attempt, then delivers it', async () => {
    const to = recipient('later');
    sink.respond(to, { stage: 'rcpt', code: 451, message: '4.7.1 greylisted, try again later' });
    const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'Deferred', text: 'hi' });
    await waitForAttempt(id, 1);
    expect((await emails(h.app, team.key).get(id)).json().latestStatus).toBe('DELIVERY_DELAYED');
    let email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'DELIVERY_DELAYED']);
    expect(email.emailEvents[1]!.data).toMatchObject({
      recipients: [to],
      accepted: [],
      response: expect.stringMatching(/^451 /),
      responseCode: 451,
      status: '4.7.1',
      remoteMta: `mx.${bed.rcptDomain}`,
      attempt: 1,
      nextAttemptAt: expect.any(String),
    });
    const full = (await emails(h.app, team.key).get(id)).json();
    expect(full).toMatchObject({ latestStatus: 'DELIVERY_DELAYED', attempts: 1 });
    expect(full.nextAttemptAt).toBe(email.emailEvents[1]!.data!.nextAttemptAt);
    // Each deferral is an event of its own, with its answer.
    h.t.clock.advance(7 * 60_000);
    bed.runner.wake();
    await waitForAttempt(id, 2);
    expect((await emails(h.app, team.key).get(id)).json().latestStatus).toBe('DELIVERY_DELAYED');
    email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'DELIVERY_DELAYED', 'DELIVERY_DELAYED']);
    expect(email.emailEvents[2]!.data).toMatchObject({ attempt: 2 });
    expect(messagesOf(id)).toHaveLength(0);
    // The greylisting ends: the next retry (10 min ±20% later) is delivered.
    sink.respond(to, { stage: 'rcpt', code: 250 });
    h.t.clock.advance(13 * 60_000);
    bed.runner.wake();
    await waitForStatus(h, id, 'DELIVERED');
    expect(messagesOf(id)).toHaveLength(1);
    const delivered = await emailJson(h, team.key, id);
    expect(statuses(delivered.emailEvents)).toEqual(['QUEUED', 'DELIVERY_DELAYED', 'DELIVERY_DELAYED', 'DELIVERED']);
    expect((await emails(h.app, team.key).get(id)).json()).toMatchObject({ attempts: 3, nextAttemptAt: null });
  });
});

describe('replies', () => {
  it('a reply carries In-Reply-To and References with the Message-ID the receiver saw for the original', async () => {
    const original = await emails(h.app, team.key).sent({
      from: team.from(),
      to: recipient('thread'),
      subject: 'Ticket #7',
      text: 'We got your request.',
    });
    await waitForStatus(h, original, 'DELIVERED');
    const [originalMessage] = messagesOf(original);
    const originalId = (await simpleParser(originalMessage!.raw)).messageId;
    expect(originalId).toBe(`<${original}@${MAIL_DOMAIN}>`);

    const reply = await emails(h.app, team.key).sent({
      from: team.from(),
      to: recipient('thread'),
      subject: 'Re: Ticket #7',
      text: 'Solved.',
      inReplyToId: original,
    });
    await waitForStatus(h, reply, 'DELIVERED');
    const [replyMessage] = messagesOf(reply);
    const parsed = await simpleParser(replyMessage!.raw);
    expect(parsed.inReplyTo).toBe(originalId);
    expect([parsed.references ?? []].flat()).toContain(originalId);
    expect(parsed.messageId).toBe(`<${reply}@${MAIL_DOMAIN}>`);
  });

  it("an inReplyToId naming another team's email, or no email, is 404 and stores nothing", async () => {
    const theirs = await emails(h.app, team.key).sent({
      from: team.from(),
      to: recipient('private'),
      subject: 'Private',
      text: 'Only ours.',
    });
    const other = await sendingTeam();
    for (const inReplyToId of [theirs, 'em_does_not_exist']) {
      const response = await emails(h.app, other.key).send({
        from: other.from(),
        to: recipient('probe'),
        subject: 'Re: Private',
        text: 'Probe',
        inReplyToId,
      });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().error.message).toContain('inReplyToId');
    }
    expect(await h.t.deps.db.selectFrom('emails').select('id').where('team_id', '=', other.id).execute()).toEqual([]);
  });

  it('a reply delivered before its original still names the original in In-Reply-To', async () => {
    await bed.runner.stop();
    let original: string;
    let reply: string;
    try {
      // The original is scheduled for later; the reply goes now.
      original = await emails(h.app, team.key).sent({
        from: team.from(),
        to: recipient('later'),
        subject: 'Later',
        text: 'x',
        scheduledAt: new Date(h.t.clock.now().getTime() + 3_600_000).toISOString(),
      });
      reply = await emails(h.app, team.key).sent({
        from: team.from(),
        to: recipient('now'),
        subject: 'Re: Later',
        text: 'y',
        inReplyToId: original,
      });
    } finally {
      bed.runner = await startDeliveryRunner(h, direct.deps.mailTransport);
    }
    await waitForStatus(h, reply, 'DELIVERED');
    const parsed = await simpleParser(messagesOf(reply)[0]!.raw);
    expect(parsed.inReplyTo).toBe(`<${original}@${MAIL_DOMAIN}>`);
  });
});

describe('a domain deleted while its email waits', () => {
  it('fails the email with a FAILED event naming the reason, and sends nothing', async () => {
    const doomed = await sendingTeam();
    // No worker while the email is queued, so the deletion comes between queueing and delivery.
    await bed.runner.stop();
    let id: string;
    try {
      id = await emails(h.app, doomed.key).sent({
        from: doomed.from(),
        to: recipient('orphan'),
        subject: 'Orphan',
        text: 'hi',
      });
      expect(await latestStatus(h, id)).toBe('QUEUED');
      const deleted = await call(h.app, doomed.key, 'DELETE', `/v1/domains/${doomed.domain.id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
    } finally {
      bed.runner = await startDeliveryRunner(h, direct.deps.mailTransport);
    }
    await waitForStatus(h, id, 'FAILED');
    const email = await emailJson(h, doomed.key, id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'FAILED']);
    expect(email.emailEvents[1]!.data).toEqual({
      reason: expect.stringMatching(
        new RegExp(`${doomed.domain.name.replace(/\./g, '\\.')}.*no longer a verified domain`),
      ),
    });
    // Settled for good: nothing is retried and nothing reached the MX.
    h.t.clock.advance(60 * 60_000);
    await bed.runner.idle();
    expect(await latestStatus(h, id)).toBe('FAILED');
    expect(messagesOf(id)).toHaveLength(0);
    expect(sink.messages.filter((m) => m.envelope.to.some((to) => to.startsWith('orphan-')))).toHaveLength(0);
  });
});

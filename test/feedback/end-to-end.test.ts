// Bounces and complaints end to end, over real sockets: an email goes through the API and the delivery
// worker to the SMTP sink (the relay, answering 250); a DSN or an ARF report then comes back to the
// return path the sink saw as MAIL FROM, through Herald's own inbound listener (startInboundSmtp,
// exactly as `herald smtp` runs it: it spools the message, answers 250 and then records the report
// itself), with the worker's inbound-messages queue running beside it. What follows is checked
// as a team sees it: the email's status and events over the API, the suppression list over the admin
// API, and the next send to the address SUPPRESSED and left out of the daily usage. A forged return
// path is refused at RCPT TO.
import { randomInt } from 'node:crypto';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.ts';
import { usageOfDay } from '../../src/emails/limits.ts';
import { parseReturnPath } from '../../src/emails/return-path.ts';
import { inboundMessagesQueue } from '../../src/mx/inbound-queue.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import type { Runtime } from '../../src/runtime.ts';
import { startInboundSmtp, type InboundSmtpService } from '../../src/services.ts';
import {
  emailJson,
  latestStatus,
  startRelayDelivery,
  uniqueRecipient,
  waitForStatus,
  type RelayDelivery,
} from '../emails/delivery-support.ts';
import { emails, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import { TEST_ADMIN_TOKEN } from '../support/app.ts';

let d: RelayDelivery;
let h: EmailHarness;
let team: SendingTeam;
let inbound: InboundSmtpService;
let inboundPort: number;
/** The worker's part: the queue that takes what a listener did not finish (here: nothing). */
let inboundRunner: QueueRunner;

/**
 * startInboundSmtp reads its port from config (0 means off, so it cannot be asked for an ephemeral
 * one): a random high port, and another one when that is taken by a parallel test worker.
 */
async function startListener(deps: Deps): Promise<void> {
  for (let tries = 0; ; tries++) {
    const port = randomInt(20_000, 60_000);
    const runtime: Runtime = {
      deps: { ...deps, config: { ...deps.config, smtpPort: port, host: '127.0.0.1' } },
      adminTokenGenerated: false,
      close: async () => {},
    };
    try {
      inbound = await startInboundSmtp(runtime);
      inboundPort = port;
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries >= 20) throw error;
    }
  }
}

beforeAll(async () => {
  d = await startRelayDelivery();
  ({ h, team } = d);
  await startListener(h.t.deps);
  const { deps } = h.t;
  inboundRunner = new QueueRunner({
    database: deps.database,
    queues: [
      inboundMessagesQueue({
        db: deps.db,
        secrets: deps.secrets,
        clock: h.t.clock,
        mailDomain: deps.config.mailDomain,
        metrics: deps.metrics,
      }),
    ],
    clock: h.t.clock,
    pollMs: 50,
  });
  await inboundRunner.start();
});
afterEach(async () => {
  await d.auditDkim();
});
afterAll(async () => {
  await inbound?.stop();
  await inboundRunner?.stop();
  await d?.close();
});

const crlf = (text: string) => Buffer.from(text.replace(/\r?\n/g, '\r\n'));

/** An RFC 3464 bounce as a receiving MTA writes it, with the original's headers attached. */
function dsn(recipient: string, originalHeaders: string): Buffer {
  return crlf(`From: Mail Delivery System <MAILER-DAEMON@mx.example.test>
To: postmaster
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="DSN-B"

--DSN-B
Content-Type: text/plain

This is the mail system at host mx.example.test. Your message could not be delivered.

--DSN-B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.test
Arrival-Date: Sun, 22 Nov 2026 09:00:00 +0000

Final-Recipient: rfc822; ${recipient}
Original-Recipient: rfc822; ${recipient}
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx2.example.test
Diagnostic-Code: smtp; 550 5.1.1 <${recipient}>: Recipient address rejected: User unknown

--DSN-B
Content-Type: text/rfc822-headers

${originalHeaders}
--DSN-B--
`);
}

/** An RFC 5965 abuse report as a mailbox provider's feedback loop sends it, the original attached. */
function arf(recipient: string, returnPath: string, original: string): Buffer {
  return crlf(`From: FBL <fbl@fbl.example.test>
To: abuse
Subject: Abuse report
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="ARF-B"

--ARF-B
Content-Type: text/plain

This is an email abuse report for an email message received from IP 192.0.2.1.

--ARF-B
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: FBL/1.0
Version: 1
Original-Mail-From: <${returnPath}>
Original-Rcpt-To: <${recipient}>
Arrival-Date: Sun, 22 Nov 2026 09:00:00 +0000

--ARF-B
Content-Type: message/rfc822

${original}
--ARF-B--
`);
}

interface SmtpAnswer {
  accepted: string[];
  response: string;
}

/** One message to the listener on loopback with nodemailer's SMTP client; rejects with its error. */
async function sendToListener(envelope: { from: string | false; to: string }, raw: Buffer): Promise<SmtpAnswer> {
  const connection = new SMTPConnection({
    host: '127.0.0.1',
    port: inboundPort,
    name: 'mx.example.test',
    ignoreTLS: true,
    connectionTimeout: 5_000,
    socketTimeout: 5_000,
  });
  await new Promise<void>((resolve, reject) => {
    connection.once('error', reject);
    connection.connect(() => resolve());
  });
  try {
    return await new Promise<SmtpAnswer>((resolve, reject) => {
      connection.send(envelope, raw, (error, info) =>
        error ? reject(error) : resolve({ accepted: info.accepted, response: info.response }),
      );
    });
  } finally {
    connection.quit();
  }
}

/** Whatever the listener has spooled so far, recorded by the listener itself. */
const processed = () => inbound.drained();

/** Sent through the API and delivered to the sink: its id, and the return path the sink saw. */
async function deliveredEmail(to: string): Promise<{ id: string; returnPath: string; raw: string }> {
  const id = await emails(h.app, team.key).sent({
    from: team.from(),
    to,
    subject: 'Your order',
    text: 'Thanks for your order',
  });
  await waitForStatus(h, id, 'SENT');
  const [message, ...more] = d.messagesOf(id);
  expect(more).toHaveLength(0);
  expect(message!.envelope.to).toEqual([to]);
  return { id, returnPath: message!.envelope.from, raw: message!.raw.toString('utf8') };
}

const headerBlock = (raw: string) => raw.slice(0, raw.indexOf('\r\n\r\n') + 2);
const statuses = (events: { status: string }[]) => events.map((e) => e.status);
const today = () => h.t.clock.now().toISOString().slice(0, 10);

async function suppressionsOf(address: string): Promise<{ email: string; reason: string; emailId: string | null }[]> {
  const response = await h.app.inject({
    method: 'GET',
    url: `/admin/v1/teams/${team.id}/suppressions?email=${encodeURIComponent(address)}`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: { email: string; reason: string; emailId: string | null }[] }).data;
}

async function usedToday(): Promise<number> {
  const used = await usageOfDay(h.t.deps.db, team.id, today());
  return used.transactional + used.marketing;
}

/** The next send to `address`: stored as SUPPRESSED, not counted, never handed to the relay. */
async function expectNextSendSuppressed(address: string): Promise<void> {
  const before = await usedToday();
  const id = await emails(h.app, team.key).sent({
    from: team.from(),
    to: address,
    subject: 'Again',
    text: 'hello again',
  });
  expect(await latestStatus(h, id)).toBe('SUPPRESSED');
  const email = await emailJson(h, team.key, id);
  expect(email.emailEvents).toEqual([
    expect.objectContaining({ status: 'SUPPRESSED', data: { recipients: [address] } }),
  ]);
  expect(await usedToday()).toBe(before);
  // Control: a send to a fresh address does count, so the check above could see a change.
  const control = await emails(h.app, team.key).sent({
    from: team.from(),
    to: uniqueRecipient('control'),
    subject: 'Control',
    text: 'x',
  });
  expect(await usedToday()).toBe(before + 1);
  await waitForStatus(h, control, 'SENT');
  // By the time the control email is SENT, the worker has passed the suppressed one over.
  expect(d.messagesOf(id)).toHaveLength(0);
}

/** Messages in the spool, not yet acted on. */
async function spooledCount(): Promise<number> {
  const row = await h.t.deps.db
    .selectFrom('inbound_messages')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function feedbackCount(outcome: string): Promise<number> {
  const metric = await h.t.deps.metrics.getSingleMetric('herald_feedback_reports_total')?.get();
  return (metric?.values ?? []).filter((v) => v.labels.outcome === outcome).reduce((sum, v) => sum + v.value, 0);
}

describe('feedback through the inbound SMTP listener', () => {
  it('a DSN to the return path bounces the email, suppresses the address, and the next send is SUPPRESSED', async () => {
    const to = uniqueRecipient('gone');
    const sent = await deliveredEmail(to);
    expect(parseReturnPath(sent.returnPath, h.t.deps.secrets)).toBe(sent.id);
    expect(await suppressionsOf(to)).toEqual([]);
    const bouncedBefore = await feedbackCount('bounced');

    // Bounces come from the null sender (RFC 5321 4.5.5).
    const answer = await sendToListener({ from: false, to: sent.returnPath }, dsn(to, headerBlock(sent.raw)));
    expect(answer.accepted).toEqual([sent.returnPath]);
    expect(answer.response).toMatch(/^250/);

    // The 250 is written once the message is spooled; the listener then records what it reports.
    await processed();
    expect(await spooledCount()).toBe(0);
    expect(await latestStatus(h, sent.id)).toBe('BOUNCED');
    const email = await emailJson(h, team.key, sent.id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'SENT', 'BOUNCED']);
    expect(email.emailEvents[2]!.data).toMatchObject({
      recipient: to,
      action: 'failed',
      status: '5.1.1',
      bounceType: 'hard',
      category: 'unknown-user',
      remoteMta: 'mx2.example.test',
      reportingMta: 'mx.example.test',
    });
    expect(email.emailEvents[2]!.data!.diagnosticCode).toContain('Recipient address rejected: User unknown');
    expect(await suppressionsOf(to)).toEqual([
      expect.objectContaining({ email: to, reason: 'HARD_BOUNCE', emailId: sent.id }),
    ]);
    expect(await feedbackCount('bounced')).toBe(bouncedBefore + 1);

    await expectNextSendSuppressed(to);
  });

  it('an ARF abuse report makes the email COMPLAINED and suppresses the address', async () => {
    const to = uniqueRecipient('angry');
    const sent = await deliveredEmail(to);
    const answer = await sendToListener(
      { from: 'fbl@fbl.example.test', to: sent.returnPath },
      arf(to, sent.returnPath, sent.raw),
    );
    expect(answer.response).toMatch(/^250/);

    await processed();
    expect(await latestStatus(h, sent.id)).toBe('COMPLAINED');
    const email = await emailJson(h, team.key, sent.id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'SENT', 'COMPLAINED']);
    expect(email.emailEvents[2]!.data).toMatchObject({
      recipient: to,
      feedbackType: 'abuse',
      matchedBy: 'return-path',
    });
    expect(await suppressionsOf(to)).toEqual([
      expect.objectContaining({ email: to, reason: 'COMPLAINT', emailId: sent.id }),
    ]);

    await expectNextSendSuppressed(to);
  });

  it('refuses a forged return path (wrong tag) at RCPT TO with 550, and changes nothing', async () => {
    const to = uniqueRecipient('target');
    const sent = await deliveredEmail(to);
    // The same email id with another tag: a guess at an address of ours, without HERALD_SECRET.
    const [local, domain] = sent.returnPath.split('@') as [string, string];
    const tag = local.slice(local.lastIndexOf('.') + 1);
    const forgedTag = tag.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    const forged = `${local.slice(0, local.lastIndexOf('.') + 1)}${forgedTag}@${domain}`;
    expect(forged).not.toBe(sent.returnPath);
    expect(parseReturnPath(forged, h.t.deps.secrets)).toBeNull();
    const reportsBefore = (await feedbackCount('bounced')) + (await feedbackCount('ignored'));

    const refusal = await sendToListener({ from: false, to: forged }, dsn(to, headerBlock(sent.raw))).then(
      () => null,
      (error: Error & { responseCode?: number; command?: string; response?: string }) => error,
    );
    expect(refusal, 'the forged return path was accepted').not.toBeNull();
    expect(refusal!.responseCode).toBe(550);
    expect(refusal!.command).toMatch(/^RCPT TO/);
    expect(await spooledCount()).toBe(0);
    await processed();

    expect(await latestStatus(h, sent.id)).toBe('SENT');
    expect(statuses((await emailJson(h, team.key, sent.id)).emailEvents)).toEqual(['QUEUED', 'SENT']);
    expect(await suppressionsOf(to)).toEqual([]);
    // Nothing reached applyFeedback at all.
    expect((await feedbackCount('bounced')) + (await feedbackCount('ignored'))).toBe(reportsBefore);

    // Control: the genuine return path on the same listener is accepted for the same report.
    const answer = await sendToListener({ from: false, to: sent.returnPath }, dsn(to, headerBlock(sent.raw)));
    expect(answer.response).toMatch(/^250/);
    await processed();
    expect(await latestStatus(h, sent.id)).toBe('BOUNCED');
  });
});

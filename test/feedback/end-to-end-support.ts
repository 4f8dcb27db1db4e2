// The bed of the feedback end-to-end tests, over real sockets: an email goes through the API and the
// delivery worker to the SMTP sink (the relay, answering 250); a report then comes back to the return
// path the sink saw as MAIL FROM, through Herald's own inbound listener (startInboundSmtp, exactly as
// `herald smtp` runs it: it spools the message, answers 250 and then records the report itself), with
// the worker's inbound-messages queue running beside it. The reads check what a team sees: the
// suppression list over the admin API, the daily usage, the spool and the feedback metric.
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { expect } from 'vitest';
import { usageOfDay } from '../../src/emails/limits.ts';
import { inboundMessagesQueue } from '../../src/mx/inbound-queue.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import {
  emailJson,
  latestStatus,
  startRelayDelivery,
  uniqueRecipient,
  waitForStatus,
} from '../emails/delivery-support.ts';
import { emails } from '../emails/support.ts';
import { startListener } from '../inboxes/support.ts';
import { TEST_ADMIN_TOKEN } from '../support/app.ts';

interface SmtpAnswer {
  accepted: string[];
  response: string;
}

export const headerBlock = (raw: string) => raw.slice(0, raw.indexOf('\r\n\r\n') + 2);
export const statuses = (events: { status: string }[]) => events.map((e) => e.status);

export type FeedbackBed = Awaited<ReturnType<typeof startFeedbackBed>>;

export async function startFeedbackBed() {
  const d = await startRelayDelivery();
  const { h, team } = d;
  const listener = await startListener(h.t.deps);
  const inbound = listener.service;
  const inboundPort = listener.port;
  const { deps } = h.t;
  /** The worker's part: the queue that takes what a listener did not finish (here: nothing). */
  const inboundRunner = new QueueRunner({
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

  return {
    h,
    team,
    sendToListener,
    processed,
    deliveredEmail,
    suppressionsOf,
    expectNextSendSuppressed,
    spooledCount,
    feedbackCount,
    auditDkim: () => d.auditDkim(),
    async close() {
      await inbound?.stop();
      await inboundRunner?.stop();
      await d?.close();
    },
  };
}

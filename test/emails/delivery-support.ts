// Shared by the delivery tests: the email harness plus a delivery runner on a transport of the test's
// choosing, and helpers that wait for an email to settle and find its messages in the sink.
import { expect } from 'vitest';
import { createMailTransport, type MailTransport } from '../../src/adapters/mail-transport/index.ts';
import { loadConfig } from '../../src/config.ts';
import { emailDeliveryLanes } from '../../src/emails/delivery.ts';
import { parseReturnPath } from '../../src/emails/return-path.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { recordOf, type DomainJson } from '../domains/support.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { TestDnsServer } from '../support/dns-server.ts';
import { verifyDkimWithDns } from '../support/dkim-verify.ts';
import { SmtpSink, type SinkMessage, type TestDkimKey } from '../support/smtp-sink.ts';
import { emails, startEmailHarness, type EmailHarness, type SendingTeam } from './support.ts';
import { sessionBounces } from '../../src/feedback/index.ts';

export const MAIL_DOMAIN = 'mail.herald.test';

/** The relay transport pointed at the sink; its certificate is self-signed, as in transport-relay.test.ts. */
export function relayTo(h: EmailHarness, url: string): MailTransport {
  return createMailTransport(
    { kind: 'smtp', url },
    {
      dns: h.t.deps.dns,
      mxPort: 25,
      mailDomain: MAIL_DOMAIN,
      record: () => {
        throw new Error('not the log transport');
      },
      relayTls: { rejectUnauthorized: false },
      timeoutMs: 5_000,
    },
  );
}

export async function startDeliveryRunner(h: EmailHarness, transport: MailTransport): Promise<QueueRunner> {
  const runner = new QueueRunner({
    database: h.t.deps.database,
    queues: emailDeliveryLanes({
      secrets: h.t.deps.secrets,
      publicUrl: h.t.deps.config.publicUrl,
      transport,
      mailDomain: MAIL_DOMAIN,
      bounces: sessionBounces,
    }),
    clock: h.t.clock,
    pollMs: 50,
  });
  await runner.start();
  return runner;
}

export interface EmailJson {
  id: string;
  emailEvents: { status: string; data: Record<string, unknown> | null; createdAt: string }[];
}

export async function emailJson(h: EmailHarness, key: string, id: string): Promise<EmailJson> {
  const response = await emails(h.app, key).get(id);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The email's status as stored (the contract's latestStatus). */
export async function latestStatus(h: EmailHarness, id: string): Promise<string> {
  const row = await h.t.deps.db.selectFrom('emails').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return row.status;
}

/** Waits (real time, the worker runs on its own) until the email's status is `status`. */
export async function waitForStatus(h: EmailHarness, id: string, status: string, timeoutMs = 10_000): Promise<void> {
  await expect.poll(() => latestStatus(h, id), { timeout: timeoutMs, interval: 20 }).toBe(status);
}

/** The domain's published DKIM key, as a receiver would look it up. */
export function publishedDkimKey(domain: DomainJson): TestDkimKey {
  const record = recordOf(domain, 'DKIM');
  const selector = record.name.split('._domainkey')[0]!;
  return { domain: domain.name, selector, privateKeyPem: '', txt: record.value };
}

/** The harness's loopback DNS server (HERALD_DNS_SERVERS), where verified domains' records are published. */
export function harnessDnsServer(h: EmailHarness): string {
  const [server] = h.t.deps.config.dnsServers;
  if (server === undefined) throw new Error('the email harness has no DNS server');
  return server;
}

/** Publishes the domain's DKIM record, as the API gave it, on `dns` (what the team's DNS host would do). */
export function publishDkimRecord(dns: TestDnsServer, domain: DomainJson): void {
  const record = recordOf(domain, 'DKIM');
  dns.setTxt(record.name, record.value);
}

/** Fails the test unless `raw` carries DKIM signatures that all pass mailauth's verifier fed `dnsServer`. */
export async function expectDkimPass(raw: Buffer, dnsServer: string, what = 'message'): Promise<void> {
  const verification = await verifyDkimWithDns(raw, dnsServer);
  const detail = verification.results
    .map((r) => `${r.signingDomain}/${r.selector ?? '?'}: ${r.status.result} ${r.status.comment ?? ''}`.trim())
    .join('; ');
  expect(verification.pass, `DKIM of ${what}: ${detail || 'no signature'}`).toBe(true);
}

/**
 * Checks the messages a sink recorded since the last call: each one of an email of `teamIds()` must
 * pass DKIM against `dnsServer`. The vitest worker's database is shared with other test files, so a
 * runner may also deliver emails those files left queued (their domains' records are on DNS servers
 * long closed); those are left out, and every message must at least carry a return path of ours.
 * Returns the number of messages verified; call it from afterEach.
 */
export function sinkDkimAudit(
  h: EmailHarness,
  sink: SmtpSink,
  dnsServer: string,
  teamIds: () => Iterable<number>,
): () => Promise<number> {
  let seen = 0;
  return async () => {
    if (sink.messages.length < seen) seen = 0; // the sink was reset
    const fresh: SinkMessage[] = sink.messages.slice(seen);
    seen = sink.messages.length;
    const teams = new Set(teamIds());
    let verified = 0;
    for (const message of fresh) {
      const emailId = parseReturnPath(message.envelope.from, h.t.deps.secrets);
      expect(emailId, `return path ${message.envelope.from}`).not.toBeNull();
      const row = await h.t.deps.db
        .selectFrom('emails')
        .select('team_id')
        .where('id', '=', emailId!)
        .executeTakeFirst();
      if (row === undefined || !teams.has(row.team_id)) continue;
      await expectDkimPass(message.raw, dnsServer, `email ${emailId}`);
      verified += 1;
    }
    return verified;
  };
}

/**
 * A second app on the same database and clock, configured as an operator would for direct delivery:
 * HERALD_MAIL_TRANSPORT=direct, HERALD_DNS_SERVERS=<dnsServer>, HERALD_MX_PORT=<mxPort>. Its
 * `deps.mailTransport` is the direct transport that configuration builds.
 */
export async function startDirectApp(h: EmailHarness, dnsServer: string, mxPort: number): Promise<TestApp> {
  const config = loadConfig({
    HERALD_MAIL_TRANSPORT: 'direct',
    HERALD_DNS_SERVERS: dnsServer,
    HERALD_MX_PORT: String(mxPort),
    HERALD_MAIL_DOMAIN: MAIL_DOMAIN,
  });
  const app = await createTestApp({
    clock: h.t.clock,
    config: {
      mailTransport: config.mailTransport,
      dnsServers: config.dnsServers,
      mxPort: config.mxPort,
      mailDomain: config.mailDomain,
    },
  });
  expect(app.deps.mailTransport.kind).toBe('direct');
  return app;
}

let counter = 0;
/** A recipient address no other test uses, so sink rules never cross tests. */
export function uniqueRecipient(tag: string): string {
  counter += 1;
  return `${tag}-${process.pid}-${Date.now().toString(36)}-${counter}@example.test`;
}

export interface RelayDelivery {
  h: EmailHarness;
  sink: SmtpSink;
  relay: MailTransport;
  runner: QueueRunner;
  team: SendingTeam;
  /** The sink's messages whose return path names `emailId`. */
  messagesOf(emailId: string): SinkMessage[];
  /** For afterEach: every message of the team since the last call passes DKIM over DNS. */
  auditDkim(): Promise<number>;
  close(): Promise<void>;
}

/** The email harness, an SMTP sink as the relay, a delivery runner and a pro team with a verified domain. */
export async function startRelayDelivery(): Promise<RelayDelivery> {
  const h = await startEmailHarness();
  const sink = await SmtpSink.start();
  const relay = relayTo(h, sink.url);
  const runner = await startDeliveryRunner(h, relay);
  const team = await h.team({ plan: 'pro' });
  const audit = sinkDkimAudit(h, sink, harnessDnsServer(h), () => [team.id]);
  return {
    h,
    sink,
    relay,
    runner,
    team,
    messagesOf: (emailId) =>
      sink.messages.filter((m) => parseReturnPath(m.envelope.from, h.t.deps.secrets) === emailId),
    auditDkim: audit,
    async close() {
      await runner.stop();
      await relay.close();
      await sink.close();
      await h.close();
    },
  };
}

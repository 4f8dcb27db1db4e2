// The `direct` delivery bed of a test file, as an operator configures it (HERALD_MAIL_TRANSPORT=direct,
// HERALD_DNS_SERVERS and HERALD_MX_PORT on loopback): the email harness, a loopback DNS server whose
// MX for the file's own recipient domain is the SMTP sink, the delivery worker on that transport, and
// a DKIM audit of every message the sink received after each test. useDirectBed registers the hooks.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { parseReturnPath } from '../../src/emails/return-path.ts';
import type { QueueRunner } from '../../src/queue/index.ts';
import type { TestApp } from '../support/app.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { SmtpSink, type SinkMessage } from '../support/smtp-sink.ts';
import { publishDkimRecord, sinkDkimAudit, startDeliveryRunner, startDirectApp } from './delivery-support.ts';
import { startEmailHarness, type EmailHarness, type SendingTeam } from './support.ts';

export interface DirectBed {
  h: EmailHarness;
  /** The DNS server HERALD_DNS_SERVERS names for delivery: recipients' MX records and senders' DKIM keys. */
  dns: TestDnsServer;
  sink: SmtpSink;
  direct: TestApp;
  /** The delivery worker; a test that starts another one sets it here, so that the bed stops it after the file. */
  runner: QueueRunner;
  /** A team on the pro plan whose domain's DKIM key the DNS server publishes. */
  team: SendingTeam;
  sendingTeam(): Promise<SendingTeam>;
  /** The file's recipient domain, whose MX is the sink. */
  rcptDomain: string;
  /** A new address of that domain. */
  recipient(tag: string): string;
  /** What the sink received of the email. */
  messagesOf(emailId: string): SinkMessage[];
}

export function useDirectBed(name: string): DirectBed {
  const rcptDomain = `r${randomBytes(4).toString('hex')}.${name}.test`;
  const bed = { rcptDomain } as DirectBed;
  const teamIds: number[] = [];
  let n = 0;
  bed.recipient = (tag) => `${tag}-${++n}@${rcptDomain}`;
  bed.sendingTeam = async () => {
    const made = await bed.h.team({ plan: 'pro' });
    publishDkimRecord(bed.dns, made.domain);
    teamIds.push(made.id);
    return made;
  };
  bed.messagesOf = (emailId) =>
    bed.sink.messages.filter((m) => parseReturnPath(m.envelope.from, bed.h.t.deps.secrets) === emailId);
  let auditDkim: () => Promise<number>;
  beforeAll(async () => {
    bed.h = await startEmailHarness();
    bed.dns = await TestDnsServer.start();
    bed.sink = await SmtpSink.start();
    bed.dns.setMx(rcptDomain, { exchange: `mx.${rcptDomain}`, priority: 10 });
    bed.dns.set(`mx.${rcptDomain}`, 'A', [{ type: 'A', address: '127.0.0.1' }]);
    bed.direct = await startDirectApp(bed.h, bed.dns.address, bed.sink.port);
    bed.runner = await startDeliveryRunner(bed.h, bed.direct.deps.mailTransport);
    bed.team = await bed.sendingTeam();
    auditDkim = sinkDkimAudit(bed.h, bed.sink, bed.dns.address, () => teamIds);
  });
  afterAll(async () => {
    await bed.runner?.stop();
    await bed.direct?.close();
    await bed.sink?.close();
    await bed.dns?.close();
    await bed.h?.close();
  });
  afterEach(async () => {
    await auditDkim?.();
  });
  return bed;
}

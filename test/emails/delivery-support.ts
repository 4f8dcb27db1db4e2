// Shared by the delivery tests: the email harness plus a delivery runner on a transport of the test's
// choosing, and helpers that wait for an email to settle and find its messages in the sink.
import { expect } from 'vitest';
import { createMailTransport, type MailTransport } from '../../src/adapters/mail-transport/index.ts';
import { emailDeliveryQueue } from '../../src/emails/delivery.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { recordOf, type DomainJson } from '../domains/support.ts';
import type { TestDkimKey } from '../support/smtp-sink.ts';
import { emails, type EmailHarness } from './support.ts';

export const MAIL_DOMAIN = 'mail.herald.test';

/** The relay transport pointed at the sink; its certificate is self-signed, as in transport.test.ts. */
export function relayTo(h: EmailHarness, url: string): MailTransport {
  return createMailTransport(
    { kind: 'smtp', url },
    { dns: h.t.deps.dns, mxPort: 25, mailDomain: MAIL_DOMAIN, record: () => { throw new Error('not the log transport'); }, relayTls: { rejectUnauthorized: false }, timeoutMs: 5_000 },
  );
}

export async function startDeliveryRunner(h: EmailHarness, transport: MailTransport): Promise<QueueRunner> {
  const runner = new QueueRunner({
    database: h.t.deps.database,
    queues: [emailDeliveryQueue({ secrets: h.t.deps.secrets, transport, mailDomain: MAIL_DOMAIN })],
    clock: h.t.clock,
    pollMs: 50,
  });
  await runner.start();
  return runner;
}

export interface EmailJson {
  id: string;
  emailEvents: { status: string; data: Record<string, unknown> | null }[];
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

let counter = 0;
/** A recipient address no other test uses, so sink rules never cross tests. */
export function uniqueRecipient(tag: string): string {
  counter += 1;
  return `${tag}-${process.pid}-${Date.now().toString(36)}-${counter}@example.test`;
}

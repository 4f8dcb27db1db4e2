// The inbox tests' harness: the webhook harness (real app, loopback DNS, verified domains, HTTPS
// receiver, webhook delivery) plus Herald's own inbound SMTP listener, started exactly as
// `herald smtp` starts it (startInboundSmtp: spool, 250, then the listener records the message
// itself), and a nodemailer SMTP client to speak to it on loopback.
import { randomInt } from 'node:crypto';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { expect } from 'vitest';
import type { Config } from '../../src/config.ts';
import type { Deps } from '../../src/deps.ts';
import type { Runtime } from '../../src/runtime.ts';
import { startInboundSmtp, type InboundSmtpService } from '../../src/services.ts';
import { adminRequest, bearer } from '../support/factory.ts';
import { startWebhookHarness, type WebhookHarness } from '../webhooks/support.ts';

export const MAIL_DOMAIN = 'mail.herald.test';

export interface Listener {
  service: InboundSmtpService;
  port: number;
}

/** startInboundSmtp reads its port from config (0 is off): a random high port, another when taken. */
export async function startListener(deps: Deps, config: Partial<Config> = {}): Promise<Listener> {
  for (let tries = 0; ; tries++) {
    const port = randomInt(20_000, 60_000);
    const runtime: Runtime = {
      deps: { ...deps, config: { ...deps.config, ...config, smtpPort: port, host: '127.0.0.1' } },
      adminTokenGenerated: false,
      close: async () => {},
    };
    try {
      return { service: await startInboundSmtp(runtime), port };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries >= 20) throw error;
    }
  }
}

export interface SmtpAnswer {
  accepted: string[];
  rejected: string[];
  response: string;
}

/** One message with nodemailer's SMTP client; rejects with its error (e.g. every recipient refused). */
export async function sendRaw(
  port: number,
  envelope: { from: string | false; to: string | string[] },
  raw: Buffer | string,
): Promise<SmtpAnswer> {
  const connection = new SMTPConnection({
    host: '127.0.0.1',
    port,
    name: 'mx.sender.test',
    ignoreTLS: true,
    connectionTimeout: 5_000,
    socketTimeout: 10_000,
  });
  await new Promise<void>((resolve, reject) => {
    connection.once('error', reject);
    connection.connect(() => resolve());
  });
  try {
    return await new Promise<SmtpAnswer>((resolve, reject) => {
      connection.send(envelope, typeof raw === 'string' ? Buffer.from(raw) : raw, (error, info) =>
        error ? reject(error) : resolve({ accepted: info.accepted, rejected: info.rejected, response: info.response }),
      );
    });
  } finally {
    connection.quit();
  }
}

export const crlf = (text: string) => Buffer.from(text.replace(/\r?\n/g, '\r\n'));

let counter = 0;
export const uniqueLocal = (prefix = 'box') => `${prefix}${Date.now().toString(36)}${++counter}`;

export async function createInbox(
  w: WebhookHarness,
  teamId: number,
  address: string,
  name = 'Support',
): Promise<{ id: string; name: string; address: string }> {
  return adminRequest(w.h.app, 'POST', `/teams/${teamId}/inboxes`, { name, address });
}

export interface InboxBed {
  w: WebhookHarness;
  listener: Listener;
  /** Sends and waits until the listener recorded everything it received. */
  deliver(envelope: { from: string | false; to: string | string[] }, raw: Buffer | string): Promise<SmtpAnswer>;
  get(key: string, path: string): ReturnType<WebhookHarness['request']>;
  close(): Promise<void>;
}

export async function startInboxBed(config: Partial<Config> = {}): Promise<InboxBed> {
  const w = await startWebhookHarness({ config });
  const listener = await startListener(w.h.t.deps);
  return {
    w,
    listener,
    async deliver(envelope, raw) {
      // A second apart, so that "newest first" is the order of sending (the test clock stands still).
      w.h.t.clock.advance(1_000);
      const answer = await sendRaw(listener.port, envelope, raw);
      await listener.service.drained();
      return answer;
    },
    get: (key, path) => w.h.app.inject({ method: 'GET', url: `/api${path}`, headers: bearer(key) }),
    async close() {
      await listener.service.stop();
      await w.close();
    },
  };
}

/** The bed with a team and one inbox of it on the mail domain: what most inbox test files start from. */
export async function startInboxBedWithInbox(local: string, name = 'Support', config: Partial<Config> = {}) {
  const bed = await startInboxBed(config);
  const team = await bed.w.h.team();
  const inbox = await createInbox(bed.w, team.id, `${uniqueLocal(local)}@${MAIL_DOMAIN}`, name);
  return { bed, team, inbox };
}

export type InboxSuite = Awaited<ReturnType<typeof startInboxSuite>>;

/** The bed with a team and its inbox, and reads of /v1/inbound/messages: a page, or the newest message. */
export async function startInboxSuite(local: string) {
  const { bed, team, inbox } = await startInboxBedWithInbox(local);
  const list = (key: string, query = '') => bed.get(key, `/v1/inbound/messages${query}`);
  const newest = async (key = team.key, query = '') => {
    const response = await list(key, `?limit=1${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data[0];
  };
  return { bed, team, inbox, list, newest };
}

/** A plain message. */
export function plainMessage(options: {
  from?: string;
  to: string;
  subject?: string;
  text?: string;
  messageId?: string;
  headers?: string;
}): Buffer {
  return crlf(`From: ${options.from ?? 'Alice Sender <alice@sender.test>'}
To: ${options.to}
Subject: ${options.subject ?? 'Hello'}
Date: Wed, 25 Nov 2026 10:00:00 +0000
Message-ID: ${options.messageId ?? `<${uniqueLocal('m')}@sender.test>`}
MIME-Version: 1.0
${options.headers ?? ''}Content-Type: text/plain; charset=utf-8

${options.text ?? 'Hello there.'}
`);
}

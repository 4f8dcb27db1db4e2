// SMTP submission's tests: the real app on the worker's database (the email API's harness: verified
// sending domains, the test clock), and a submission listener on loopback ports with its deps, which
// is what services.ts starts; nodemailer as the application's client, over real sockets.
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Registry } from 'prom-client';
import { expect } from 'vitest';
import { AuthLockout } from '../../src/submission/auth-lockout.ts';
import {
  startSubmissionListener,
  type SubmissionLimits,
  type SubmissionListener,
} from '../../src/submission/listener.ts';
import { selfSignedCertificate } from '../../src/submission/self-signed.ts';
import { submissionBatching } from '../../src/submission/start.ts';
import { emails, startEmailHarness, type EmailHarness } from '../emails/support.ts';

export const TLS = selfSignedCertificate(['localhost', '127.0.0.1'], new Date(), 2);

export interface SubmissionBed {
  h: EmailHarness;
  listener: SubmissionListener;
  /** A listener of its own with other options (stopped by close()). */
  start(options?: {
    limits?: Partial<SubmissionLimits>;
    plaintextAuthFromLoopback?: boolean;
  }): Promise<SubmissionListener>;
  close(): Promise<void>;
}

export async function startSubmissionBed(): Promise<SubmissionBed> {
  const h = await startEmailHarness();
  const { deps } = h.t;
  const started: SubmissionListener[] = [];
  const start = async (options: { limits?: Partial<SubmissionLimits>; plaintextAuthFromLoopback?: boolean } = {}) => {
    const listener = await startSubmissionListener(
      {
        db: deps.db,
        clock: deps.clock,
        announcer: deps.announcer,
        batching: submissionBatching(deps.db),
        config: { mailDomain: deps.config.mailDomain },
        principals: deps.principals,
        rateLimiter: deps.rateLimiter,
        lockout: new AuthLockout({ secrets: deps.secrets, clock: deps.clock, rateLimiter: deps.rateLimiter }),
        logger: deps.logger,
        metrics: deps.metrics,
      },
      { host: '127.0.0.1', port: 0, tlsPort: 0, tls: TLS, hostname: 'submit.herald.test', ...options },
    );
    started.push(listener);
    return listener;
  };
  const listener = await start();
  return {
    h,
    listener,
    start,
    async close() {
      for (const l of started) await l.stop();
      await h.close();
    },
  };
}

/** nodemailer as an application configures it: STARTTLS required (or implicit TLS), the certificate trusted. */
export function transport(
  port: number,
  key: string,
  options: { secure?: boolean; user?: string } = {},
): Transporter<SMTPTransport.SentMessageInfo> {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: options.secure ?? false,
    requireTLS: !options.secure,
    tls: { ca: TLS.cert },
    auth: { user: options.user ?? 'herald', pass: key },
  });
}

/** The email id in a 250 reply (`250 2.6.0 Queued as em_...`). */
export function emailIdOf(response: string): string {
  const id = /(em_[A-Za-z0-9_-]+)/.exec(response)?.[1];
  expect(id, response).toBeDefined();
  return id!;
}

/** GET /api/v1/emails/{id} as the team's key. */
export async function readEmail(h: EmailHarness, key: string, id: string) {
  const response = await emails(h.app, key).get(id);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, unknown> & { source: string; emailEvents: { status: string }[] };
}

/** The SMTP error nodemailer reports: its response line and code. */
export async function refusal(send: Promise<unknown>): Promise<{ responseCode: number; response: string }> {
  const error = (await send.then(
    () => null,
    (e: unknown) => e,
  )) as { responseCode?: number; response?: string } | null;
  expect(error, 'the send should have been refused').not.toBeNull();
  return { responseCode: error!.responseCode ?? 0, response: error!.response ?? String(error) };
}

export async function metric(registry: Registry, name: string, labels = ''): Promise<number> {
  const text = await registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

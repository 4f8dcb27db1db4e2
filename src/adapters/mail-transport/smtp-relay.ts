// HERALD_MAIL_TRANSPORT=smtp://[user:pass@]host:port (smtps:// for implicit TLS): every message goes
// to one relay over nodemailer's pooled SMTP transport, the whole envelope in one transaction.
// Certificates are checked (the operator named this host); STARTTLS is used whenever offered.
import type { ConnectionOptions } from 'node:tls';
import nodemailer from 'nodemailer';
import { outcomesFromError, outcomesFromInfo } from './outcomes.ts';
import type { DeliveryResult, Envelope, MailTransport } from './types.ts';

export interface SmtpRelayOptions {
  /** smtp:// or smtps:// URL with optional user:pass (percent-encoded). */
  url: string;
  /** EHLO name: HERALD_MAIL_DOMAIN. */
  heloName: string;
  maxConnections?: number;
  /** Extra TLS options, e.g. a CA for a private relay (tests: rejectUnauthorized false). */
  tls?: ConnectionOptions;
  timeoutMs?: number;
}

export function createSmtpRelayTransport(options: SmtpRelayOptions): MailTransport {
  const url = new URL(options.url);
  const secure = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  const timeout = options.timeoutMs ?? 60_000;
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: options.maxConnections ?? 5,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    name: options.heloName,
    ...(user !== '' ? { auth: { user, pass: decodeURIComponent(url.password) } } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  const host = url.host;

  return {
    kind: 'smtp',
    async send(envelope: Envelope, raw: Buffer): Promise<DeliveryResult> {
      try {
        const info = await transport.sendMail({ envelope: { from: envelope.from, to: envelope.to }, raw });
        return { recipients: outcomesFromInfo(envelope.to, info, host) };
      } catch (error) {
        return { recipients: outcomesFromError(envelope.to, error, host) };
      }
    },
    async close() {
      transport.close();
    },
  };
}

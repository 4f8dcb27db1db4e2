// HERALD_MAIL_TRANSPORT=smtp://[user:pass@]host:port (smtps:// for implicit TLS): every message goes
// to one relay over a pool of sessions (session-pool.ts: several messages per session, QUIT when
// idle or closing), the whole envelope in one transaction. Certificates are checked (the operator
// named this host); STARTTLS is used whenever offered.
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { outcomesFromError, outcomesFromInfo } from './outcomes.ts';
import { SessionPool } from './session-pool.ts';
import { SmtpSession } from './smtp-session.ts';
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
  /** How long an idle session waits for the next message before QUIT. Default 5 s. */
  idleMs?: number;
}

export function createSmtpRelayTransport(options: SmtpRelayOptions): MailTransport {
  const url = new URL(options.url);
  const secure = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const host = url.host;
  const pool = new SessionPool({
    open: () =>
      SmtpSession.open({
        address: hostname,
        // SNI takes names only (RFC 6066); an address is checked against the certificate's IP entries.
        ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
        port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
        secure,
        heloName: options.heloName,
        tls: { rejectUnauthorized: true, ...options.tls },
        ...(user !== '' ? { auth: { user, pass: decodeURIComponent(url.password) } } : {}),
        timeoutMs,
      }),
    limit: () => options.maxConnections ?? 5,
    idleMs: options.idleMs ?? 5_000,
    waitMs: 2 * timeoutMs,
  });

  return {
    kind: 'smtp',
    async send(envelope: Envelope, raw: Buffer): Promise<DeliveryResult> {
      let session: SmtpSession;
      try {
        session = await pool.acquire();
      } catch (error) {
        return { recipients: outcomesFromError(envelope.to, error, host) };
      }
      try {
        const info = await session.send(envelope, raw);
        return { recipients: outcomesFromInfo(envelope.to, info, host) };
      } catch (error) {
        return { recipients: outcomesFromError(envelope.to, error, host) };
      } finally {
        pool.release(session);
      }
    },
    async close() {
      pool.close();
    },
  };
}

// One SMTP client session (nodemailer's SMTPConnection) behind promises: open, send a message, RSET
// before the next one, and QUIT before every close (RFC 5321 4.1.1.10). The pools (session-pool.ts)
// keep sessions open between messages; a session that saw an error or the server's close is broken
// and is never handed out again.
import type { ConnectionOptions, TLSSocket } from 'node:tls';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { Envelope } from './types.ts';

export interface SessionOptions {
  /** Where to connect: an address (direct) or a host name (relay). */
  address: string;
  port: number;
  /** The host's name: SNI and, when certificates are checked, the name they must match. */
  servername?: string;
  /** Implicit TLS (smtps://). */
  secure?: boolean;
  /** Never STARTTLS (a host whose handshake failed is retried in plaintext). */
  ignoreTLS?: boolean;
  /** Fail unless STARTTLS succeeds (MTA-STS enforce, RFC 8461 5). */
  requireTLS?: boolean;
  tls?: ConnectionOptions;
  heloName: string;
  localAddress?: string;
  auth?: { user: string; pass: string };
  timeoutMs: number;
}

/** What the session's TLS came to: none, a certificate that checks out for the host, or one that does not. */
export type SessionTls = 'plaintext' | 'verified' | 'unverified';

export interface SendInfo {
  accepted?: unknown[];
  rejectedErrors?: { recipient?: string; response?: string; responseCode?: number; message?: string }[];
  response?: string;
}

export class SmtpSession {
  /** Messages that got their final reply on this session. */
  messages = 0;
  /** The host's name (or address) the session is with: what outcomes report as `host`. */
  readonly host: string;
  #broken = false;
  #closed = false;
  readonly #connection: SMTPConnection;

  private constructor(connection: SMTPConnection, host: string) {
    this.#connection = connection;
    this.host = host;
    // After the handshake an error or the server's close only marks the session: its caller sees the
    // failure of the command in flight, if any.
    connection.on('error', () => {
      this.#broken = true;
    });
    connection.on('end', () => {
      this.#broken = true;
      this.#closed = true;
    });
  }

  static open(options: SessionOptions): Promise<SmtpSession> {
    const connection = new SMTPConnection({
      host: options.address,
      port: options.port,
      secure: options.secure ?? false,
      ignoreTLS: options.ignoreTLS ?? false,
      requireTLS: options.requireTLS ?? false,
      // A failed STARTTLS is an error (ETLS): the caller decides whether plaintext will do.
      opportunisticTLS: false,
      name: options.heloName,
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      tls: {
        rejectUnauthorized: false,
        ...options.tls,
        ...(options.servername === undefined ? {} : { servername: options.servername }),
      },
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        connection.close();
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      connection.once('error', fail);
      connection.once('end', () => fail(Object.assign(new Error('connection closed'), { code: 'ECONNECTION' })));
      connection.connect((error?: Error) => {
        if (error) return fail(error);
        const login = options.auth;
        if (login === undefined) return done();
        connection.login({ user: login.user, pass: login.pass }, (loginError) =>
          loginError ? fail(loginError) : done(),
        );
      });
      function done() {
        if (settled) return;
        settled = true;
        connection.removeListener('error', fail);
        resolve(new SmtpSession(connection, options.servername ?? options.address));
      }
    });
  }

  get usable(): boolean {
    return !this.#broken && !this.#closed;
  }

  /** What the session's TLS came to (checked against `servername` when one was given). */
  get tls(): SessionTls {
    // nodemailer marks implicit TLS with secureConnection and a STARTTLS upgrade with secure.
    const socket = (this.#connection as unknown as { _socket?: Partial<TLSSocket> })._socket;
    const secure = this.#connection.secureConnection || this.#connection.secure;
    if (!secure || socket?.encrypted !== true) return 'plaintext';
    return socket.authorized === true ? 'verified' : 'unverified';
  }

  /** One transaction. Rejects with nodemailer's error (responseCode, rejectedErrors) when it fails. */
  send(envelope: Envelope, raw: Buffer): Promise<SendInfo> {
    return new Promise((resolve, reject) => {
      this.#connection.send({ from: envelope.from, to: envelope.to }, raw, (error, info) => {
        this.messages += 1;
        if (error) {
          // A refusal leaves the session usable (RSET follows); a closing server or a socket error does not.
          if (error.responseCode === 421 || !['EENVELOPE', 'EMESSAGE'].includes(error.code ?? '')) this.#broken = true;
          reject(error);
        } else resolve(info as SendInfo);
      });
    });
  }

  /** RSET before the next transaction: also proves the session is still alive. */
  reset(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#connection.reset((error) => {
        if (error) {
          this.#broken = true;
          reject(error);
        } else resolve();
      });
    });
  }

  /** QUIT, then close once the server answers (or at once when the session is already gone). */
  quit(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#broken) this.#connection.close();
    else this.#connection.quit();
  }
}

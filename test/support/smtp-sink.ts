// A loopback SMTP server (smtp-server) that records every message it accepts: envelope, raw bytes,
// whether the session was upgraded with STARTTLS and who logged in. A test tells it how to answer,
// per recipient or for everyone, at RCPT TO or at the end of DATA: 250, a 4xx or a 5xx. STARTTLS is
// offered by default with smtp-server's bundled self-signed certificate (clients that check
// certificates must be told to accept it); `starttls: false` hides it.
//
// Held replies (holdReplies / releaseReplies) model an MTA whose acceptance point is the 250 reply to
// DATA: while holding, a message is received in full but its final reply is not written until
// releaseReplies(). A message is recorded in `messages` only when its 250 is written to a connection
// that is still open. If the client's connection closes while the reply is held (the client was
// killed), the message was never accepted: it goes to `abandoned`, never to `messages`, and no reply
// is sent. The client cannot have seen a 250 for it, so sending it again is not a duplicate.
// The sink learns of a closed connection from smtp-server's onClose, a moment after the socket
// closed: a test that kills the client and then releases should first wait until heldCount is 0
// (and openConnections, if it needs every connection gone), as test/process/delivery-crash.test.ts does.
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

export interface SinkMessage {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  /** The session was TLS (STARTTLS or implicit). */
  secure: boolean;
  /** The user of AUTH, when the client logged in. */
  user: string | null;
  /** The client's EHLO name. */
  heloName: string;
}

export type SinkStage = 'rcpt' | 'data';

export interface SinkRule {
  stage: SinkStage;
  /** 250 (accept), 4xx or 5xx. */
  code: number;
  message?: string;
}

export interface HoldOptions {
  /** Start holding only once this many messages have been recorded (default 0: at once). */
  afterRecorded?: number;
}

export interface SmtpSinkOptions {
  starttls?: boolean;
  /** Bind address; default 127.0.0.1. */
  host?: string;
}

const ANY = '*';

class SmtpReplyError extends Error {
  readonly responseCode: number;
  constructor(code: number, message: string) {
    super(message);
    this.responseCode = code;
  }
}

interface HeldReply {
  sessionId: string;
  message: SinkMessage;
  reply: (error?: Error | null) => void;
}

export class SmtpSink {
  /** Accepted messages: their 250 was written to an open connection. */
  readonly messages: SinkMessage[] = [];
  /** Received in full while replies were held, but the client's connection closed before the 250. */
  readonly abandoned: SinkMessage[] = [];
  readonly #rules = new Map<string, SinkRule>();
  readonly #server: SMTPServer;
  /** Ids of the sessions whose connection is open. */
  readonly #open = new Set<string>();
  #hold: Required<HoldOptions> | null = null;
  #held: HeldReply[] = [];

  private constructor(options: SmtpSinkOptions) {
    this.#server = new SMTPServer({
      logger: false,
      disableReverseLookup: true,
      hideSTARTTLS: options.starttls === false,
      authOptional: true,
      allowInsecureAuth: true,
      onConnect: (session, callback) => {
        this.#open.add(session.id);
        callback();
      },
      onClose: (session) => {
        this.#open.delete(session.id);
        // The client is gone: whatever it was waiting for was never accepted.
        const gone = this.#held.filter((held) => held.sessionId === session.id);
        if (gone.length === 0) return;
        this.#held = this.#held.filter((held) => held.sessionId !== session.id);
        for (const held of gone) this.abandoned.push(held.message);
      },
      onAuth(auth, _session, callback) {
        callback(null, { user: auth.username });
      },
      onRcptTo: (address, _session, callback) => {
        const rule = this.ruleFor(address.address, 'rcpt');
        callback(
          rule && rule.code >= 400
            ? new SmtpReplyError(rule.code, rule.message ?? `refused by the test (${rule.stage})`)
            : null,
        );
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => this.onMessage(session, Buffer.concat(chunks), callback));
      },
    });
  }

  static async start(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
    const sink = new SmtpSink(options);
    const server = sink.#server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, options.host ?? '127.0.0.1', () => resolve());
    });
    // Client resets and timeouts are the tests' business, not the sink's.
    server.on('error', () => {});
    return sink;
  }

  get port(): number {
    return (this.#server.server.address() as AddressInfo).port;
  }

  /** `smtp://127.0.0.1:<port>` for HERALD_MAIL_TRANSPORT. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** How to answer `recipient` (or everyone with '*'); a per-recipient rule wins. */
  respond(recipient: string, rule: SinkRule): void {
    this.#rules.set(recipient === ANY ? ANY : recipient.toLowerCase(), rule);
  }

  /** Back to accepting everything (held replies are released first), and forget the recorded messages. */
  reset(): void {
    this.releaseReplies();
    this.#rules.clear();
    this.messages.length = 0;
    this.abandoned.length = 0;
  }

  /**
   * From now on (or once `afterRecorded` messages are recorded), a message that would be accepted is
   * received in full but its 250 is held until releaseReplies(). Refusals by rule are not held.
   */
  holdReplies(options: HoldOptions = {}): void {
    this.#hold = { afterRecorded: options.afterRecorded ?? 0 };
  }

  /** Stops holding and sends each held 250; a message whose client has gone is not recorded. */
  releaseReplies(): void {
    this.#hold = null;
    const held = this.#held;
    this.#held = [];
    for (const entry of held) this.#accept(entry);
  }

  /** Messages received in full whose 250 is being held (their connections still open). */
  get heldCount(): number {
    return this.#held.length;
  }

  /** Open client connections. */
  get openConnections(): number {
    return this.#open.size;
  }

  /** Waits until `predicate` holds, polling every 10 ms; `what` names it in the timeout error. */
  async waitFor(predicate: (sink: SmtpSink) => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this)) {
      if (Date.now() > deadline) {
        throw new Error(
          `sink: ${what} not reached within ${timeoutMs} ms (recorded ${this.messages.length}, held ${this.#held.length}, abandoned ${this.abandoned.length})`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Waits until `count` messages have been recorded. */
  async waitForMessages(count: number, timeoutMs = 5_000): Promise<SinkMessage[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.messages.length < count) {
      if (Date.now() > deadline) throw new Error(`sink holds ${this.messages.length} messages, expected ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.messages;
  }

  async close(): Promise<void> {
    // Held clients still connected get their reply, so that close() does not wait on them.
    this.releaseReplies();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  ruleFor(recipient: string, stage: SinkStage): SinkRule | undefined {
    const rule = this.#rules.get(recipient.toLowerCase()) ?? this.#rules.get(ANY);
    return rule?.stage === stage ? rule : undefined;
  }

  onMessage(session: SMTPServerSession, raw: Buffer, callback: (error?: Error | null) => void): void {
    const to = session.envelope.rcptTo.map((address) => address.address);
    // One reply ends DATA for the whole transaction: the first recipient with a DATA rule decides.
    for (const recipient of to) {
      const rule = this.ruleFor(recipient, 'data');
      if (rule && rule.code >= 400) {
        callback(new SmtpReplyError(rule.code, rule.message ?? `refused by the test (${rule.stage})`));
        return;
      }
    }
    const from = session.envelope.mailFrom;
    // Captured now: smtp-server resets the session's envelope once the reply is sent.
    const entry: HeldReply = {
      sessionId: session.id,
      message: {
        envelope: { from: from === false ? '' : from.address, to },
        raw,
        secure: session.secure,
        user: typeof session.user === 'string' ? session.user : null,
        heloName: session.hostNameAppearsAs,
      },
      reply: callback,
    };
    if (this.#hold !== null && this.messages.length >= this.#hold.afterRecorded) {
      this.#held.push(entry);
      return;
    }
    this.#accept(entry);
  }

  /** The acceptance point: record the message and write its 250, only if its client is still there. */
  #accept(entry: HeldReply): void {
    if (!this.#open.has(entry.sessionId)) {
      this.abandoned.push(entry.message);
      return;
    }
    this.messages.push(entry.message);
    entry.reply(null);
  }
}

// What a receiving MTA checks of what the sink got: a fresh DKIM key and a mailauth resolver that
// answers only its selector's TXT record, so signatures are verified without any network.
export interface TestDkimKey {
  domain: string;
  selector: string;
  privateKeyPem: string;
  txt: string;
}

export function makeDkimKey(domain: string, selector = 'herald'): TestDkimKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return {
    domain,
    selector,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    txt: `v=DKIM1; k=rsa; p=${p}`,
  };
}

/** The status of each DKIM signature of `raw`, checked against `key`'s published record only. */
export async function verifyDkim(raw: Buffer, key: TestDkimKey): Promise<string[]> {
  const name = `${key.selector}._domainkey.${key.domain}`;
  const resolver = async (domain: string, rrtype: string) => {
    if (rrtype === 'TXT' && domain.toLowerCase() === name) return [[key.txt]];
    throw Object.assign(new Error(`no ${rrtype} for ${domain}`), { code: 'ENOTFOUND' });
  };
  const result = await dkimVerify(raw, { resolver });
  return result.results.map((entry) => entry.status.result);
}

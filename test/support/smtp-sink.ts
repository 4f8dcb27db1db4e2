// A loopback SMTP server (smtp-server) that records every message it accepts: envelope, raw bytes,
// whether the session was upgraded with STARTTLS and who logged in. A test tells it how to answer,
// per recipient or for everyone, at RCPT TO or at the end of DATA: 250, a 4xx or a 5xx. STARTTLS is
// offered by default with smtp-server's bundled self-signed certificate (clients that check
// certificates must be told to accept it), or with the key and certificate given as `tls`;
// `starttls: false` hides it.
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
//
// What a receiving MTA sees of its clients: the sink can listen on several loopback addresses on one
// port (`hosts`), so that tests point different domains' MX at different addresses and tell the
// destinations apart by the address a connection came in on. Every connection goes into `connections`
// (address, when it opened and closed, whether the client said QUIT, how many messages it carried),
// with the peak of connections open at once overall and per address. Per address (or for all), a
// behaviour: `maxConnections` refuses a connection beyond that many open ones with 421 at greeting,
// `stall` never greets or never answers DATA, until the client goes away.
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';

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

export type SinkStall = 'greeting' | 'data';

export interface SinkBehaviour {
  /**
   * A connection beyond this many open (not refused) ones on the address is answered
   * `421 4.7.0 Too many connections` instead of the greeting, and closed.
   */
  maxConnections?: number;
  /** Accept the connection but never send the greeting, or never answer the end of DATA, until it closes. */
  stall?: SinkStall;
}

export interface SmtpSinkOptions {
  starttls?: boolean;
  /** Bind address; default 127.0.0.1. */
  host?: string;
  /** Bind addresses, all on one port (loopback: 127.0.0.x); default [host]. */
  hosts?: string[];
  /** The behaviour of every address from the start (reset() comes back to it). */
  behaviour?: SinkBehaviour;
  /** The key and certificate (PEM) STARTTLS presents; default: smtp-server's bundled self-signed pair. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

/** One client connection, as the sink saw it. Times are Date.now() milliseconds. */
export interface SinkConnection {
  /** smtp-server's session id. */
  id: string;
  /** The sink's address the client connected to: which destination it was talking to. */
  localAddress: string;
  /** When smtp-server handed the session over (after its 100 ms wait for clients that talk too soon). */
  openedAt: number;
  closedAt: number | null;
  /** The client sent QUIT before closing. */
  quit: boolean;
  /** Transactions that got their 250 after DATA on this connection. */
  messages: number;
  /** TLS (STARTTLS) was in use when the connection closed (or the last message was accepted). */
  secure: boolean;
  /** Answered 421 at greeting because the address had maxConnections open already. */
  refused: boolean;
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

/** A connection the sink is stalling: `go` carries on as if no stall had been set, `refuse` answers an error. */
interface Stalled {
  kind: SinkStall;
  localAddress: string;
  go: () => void;
  refuse: (error: Error) => void;
}

const DEFAULT_HOST = '127.0.0.1';
const BIND_ATTEMPTS = 20;
const noLog = () => {};

export class SmtpSink {
  /** Accepted messages: their 250 was written to an open connection. */
  readonly messages: SinkMessage[] = [];
  /** Received in full while replies were held, but the client's connection closed before the 250. */
  readonly abandoned: SinkMessage[] = [];
  readonly #rules = new Map<string, SinkRule>();
  readonly #servers: SMTPServer[];
  readonly #hosts: string[];
  /** Ids of the sessions whose connection is open. */
  readonly #open = new Set<string>();
  #hold: Required<HoldOptions> | null = null;
  #held: HeldReply[] = [];
  /** Every connection seen since the last reset (open ones included). */
  readonly connections: SinkConnection[] = [];
  /** The open connections' entries in `connections`, by session id. */
  readonly #live = new Map<string, SinkConnection>();
  readonly #openByAddress = new Map<string, number>();
  readonly #peakByAddress = new Map<string, number>();
  #peak = 0;
  /** Behaviours by address, '*' for every address; the address's own wins field by field. */
  readonly #behaviours = new Map<string, SinkBehaviour>();
  readonly #initialBehaviour: SinkBehaviour | undefined;
  readonly #stalled = new Map<string, Stalled>();

  private constructor(options: SmtpSinkOptions) {
    this.#hosts = options.hosts ?? [options.host ?? DEFAULT_HOST];
    if (this.#hosts.length === 0) throw new Error('sink: hosts is empty');
    this.#initialBehaviour = options.behaviour;
    if (options.behaviour) this.#behaviours.set(ANY, options.behaviour);
    // One server per address, all with the same handlers and state. smtp-server changes the options
    // object it is given, so each gets its own.
    this.#servers = this.#hosts.map(() => {
      const server = new SMTPServer(this.#serverOptions(options));
      // Client resets and timeouts are the tests' business, not the sink's (listen() still sees its own).
      server.on('error', () => {});
      // smtp-server has no QUIT hook; its command log is where every command the client sends is
      // reported, with the connection's id (= session.id). Set on the public `logger` after
      // construction: the `logger` option would also make smtp-server warn on stderr about its
      // bundled test certificate, which the sink uses on purpose.
      server.logger = {
        trace: noLog,
        info: noLog,
        warn: noLog,
        error: noLog,
        fatal: noLog,
        debug: (entry?: unknown) => {
          const { tnx, command, cid } = (entry ?? {}) as { tnx?: string; command?: string; cid?: string };
          if (tnx === 'command' && command === 'QUIT' && cid !== undefined) {
            const connection = this.#live.get(String(cid));
            if (connection) connection.quit = true;
          }
        },
      };
      return server;
    });
  }

  #serverOptions(options: SmtpSinkOptions): SMTPServerOptions {
    return {
      logger: false,
      disableReverseLookup: true,
      hideSTARTTLS: options.starttls === false,
      ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
      authOptional: true,
      allowInsecureAuth: true,
      onConnect: (session, callback) => this.#onConnect(session, callback),
      onClose: (session) => {
        this.#open.delete(session.id);
        this.#onConnectionClosed(session);
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
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          if (this.#behaviourOf(session.localAddress).stall === 'data') {
            this.#stalled.set(session.id, {
              kind: 'data',
              localAddress: session.localAddress,
              go: () => this.onMessage(session, raw, callback),
              refuse: (error) => callback(error),
            });
            return;
          }
          this.onMessage(session, raw, callback);
        });
      },
    };
  }

  #onConnect(session: SMTPServerSession, callback: (error?: Error | null) => void): void {
    this.#open.add(session.id);
    const address = session.localAddress;
    const behaviour = this.#behaviourOf(address);
    const accepted = [...this.#live.values()].filter((c) => c.localAddress === address && !c.refused).length;
    const connection: SinkConnection = {
      id: session.id,
      localAddress: address,
      openedAt: Date.now(),
      closedAt: null,
      quit: false,
      messages: 0,
      secure: session.secure,
      refused: behaviour.maxConnections !== undefined && accepted >= behaviour.maxConnections,
    };
    this.connections.push(connection);
    this.#live.set(session.id, connection);
    const open = (this.#openByAddress.get(address) ?? 0) + 1;
    this.#openByAddress.set(address, open);
    this.#peakByAddress.set(address, Math.max(this.#peakByAddress.get(address) ?? 0, open));
    this.#peak = Math.max(this.#peak, this.#live.size);
    // smtp-server answers an onConnect error with its responseCode and closes the connection.
    if (connection.refused) return callback(new SmtpReplyError(421, '4.7.0 Too many connections'));
    if (behaviour.stall === 'greeting') {
      this.#stalled.set(session.id, {
        kind: 'greeting',
        localAddress: address,
        go: () => callback(),
        refuse: (error) => callback(error),
      });
      return;
    }
    callback();
  }

  #onConnectionClosed(session: SMTPServerSession): void {
    this.#stalled.delete(session.id);
    const connection = this.#live.get(session.id);
    // A client that left during smtp-server's early-talker wait never reached onConnect.
    if (!connection) return;
    this.#live.delete(session.id);
    connection.closedAt = Date.now();
    connection.secure = session.secure;
    const address = connection.localAddress;
    this.#openByAddress.set(address, (this.#openByAddress.get(address) ?? 1) - 1);
  }

  #behaviourOf(address: string): SinkBehaviour {
    return { ...this.#behaviours.get(ANY), ...this.#behaviours.get(address) };
  }

  static async start(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
    // The first address takes a free port; the others must get the same one, which another process may
    // hold on one of them: then all close and the next attempt takes another port.
    for (let attempt = 1; ; attempt++) {
      const sink = new SmtpSink(options);
      const [first, ...rest] = sink.#servers;
      await listen(first!, 0, sink.#hosts[0]!);
      const port = (first!.server.address() as AddressInfo).port;
      try {
        for (const [i, server] of rest.entries()) await listen(server, port, sink.#hosts[i + 1]!);
      } catch (error) {
        await sink.close();
        if ((error as { code?: string }).code !== 'EADDRINUSE' || attempt >= BIND_ATTEMPTS) throw error;
        continue;
      }
      return sink;
    }
  }

  get port(): number {
    return (this.#servers[0]!.server.address() as AddressInfo).port;
  }

  /** The addresses the sink listens on, all on `port`. */
  get hosts(): readonly string[] {
    return this.#hosts;
  }

  /** `smtp://<first address>:<port>` for HERALD_MAIL_TRANSPORT. */
  get url(): string {
    const host = this.#hosts[0]!;
    return `smtp://${host === '0.0.0.0' || host === '::' ? DEFAULT_HOST : host}:${this.port}`;
  }

  /** How to answer `recipient` (or everyone with '*'); a per-recipient rule wins. */
  respond(recipient: string, rule: SinkRule): void {
    this.#rules.set(recipient === ANY ? ANY : recipient.toLowerCase(), rule);
  }

  /**
   * Back to accepting everything (held replies are released first; behaviours set since start are
   * dropped, stalled connections carry on), and forget the recorded messages and connections.
   */
  reset(): void {
    this.releaseReplies();
    this.#rules.clear();
    this.#behaviours.clear();
    if (this.#initialBehaviour) this.#behaviours.set(ANY, this.#initialBehaviour);
    this.#releaseStalls();
    this.messages.length = 0;
    this.abandoned.length = 0;
    this.resetConnections();
  }

  /**
   * How `address` (every address when omitted) treats connections from now on; null drops it. An
   * address's own behaviour wins field by field over the one for every address. Connections stalled
   * by a stall that no longer applies carry on (greeting sent, DATA answered by the rules).
   */
  setBehaviour(behaviour: SinkBehaviour | null, address: string = ANY): void {
    if (behaviour === null) this.#behaviours.delete(address);
    else this.#behaviours.set(address, behaviour);
    this.#releaseStalls();
  }

  /** Forget the closed connections; the peaks start again from the connections open now. */
  resetConnections(): void {
    this.connections.length = 0;
    this.connections.push(...this.#live.values());
    this.#peak = this.#live.size;
    this.#peakByAddress.clear();
    for (const [address, open] of this.#openByAddress) this.#peakByAddress.set(address, open);
  }

  /** The most connections open at once, over every address (refused ones included while open). */
  get peakConnections(): number {
    return this.#peak;
  }

  /** The most connections open at once on each address that saw any. */
  peakConnectionsByAddress(): Map<string, number> {
    return new Map(this.#peakByAddress);
  }

  /** Connections whose client sent QUIT. */
  get quitCount(): number {
    return this.connections.filter((connection) => connection.quit).length;
  }

  /** Accepted messages per connection, over the connections that carried at least one (0 if none did). */
  messagesPerConnection(): number {
    const used = this.connections.filter((connection) => connection.messages > 0);
    return used.length === 0 ? 0 : used.reduce((sum, connection) => sum + connection.messages, 0) / used.length;
  }

  /** Connections being stalled now (at greeting or after DATA). */
  get stalledCount(): number {
    return this.#stalled.size;
  }

  #releaseStalls(): void {
    for (const [id, stalled] of this.#stalled) {
      if (this.#behaviourOf(stalled.localAddress).stall === stalled.kind) continue;
      this.#stalled.delete(id);
      stalled.go();
    }
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
    // Held clients still connected get their reply, so that close() does not wait on them; stalled
    // ones get a 421 and are closed.
    this.releaseReplies();
    const stalled = [...this.#stalled.values()];
    this.#stalled.clear();
    for (const entry of stalled) entry.refuse(new SmtpReplyError(421, '4.3.2 Server shutting down'));
    await Promise.all(
      this.#servers.map(
        (server) =>
          new Promise<void>((resolve) => (server.server.listening ? server.close(() => resolve()) : resolve())),
      ),
    );
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
    const connection = this.#live.get(entry.sessionId);
    if (connection) {
      connection.messages += 1;
      connection.secure = entry.message.secure;
    }
    entry.reply(null);
  }
}

function listen(server: SMTPServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
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

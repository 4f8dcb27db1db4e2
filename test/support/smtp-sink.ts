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
//
// Its parts, next to it: smtp-sink-server.ts (the options and smtp-server's handlers), smtp-sink-held.ts
// (the acceptance point, held replies), smtp-sink-log.ts (the connection log), smtp-sink-behaviour.ts
// (rules, behaviours, stalls) and smtp-sink-dkim.ts (a test DKIM key and the check of a signature).
import type { AddressInfo } from 'node:net';
import type { SMTPServer, SMTPServerSession } from 'smtp-server';
import {
  ANY,
  refusal,
  SinkBehaviours,
  SmtpReplyError,
  type SinkBehaviour,
  type SinkRule,
  type SinkStage,
} from './smtp-sink-behaviour.ts';
import { SinkAcceptance, type HoldOptions, type SinkMessage } from './smtp-sink-held.ts';
import { ConnectionLog, type SinkConnection } from './smtp-sink-log.ts';
import { createSinkServer, listen, type SinkParts, type SmtpSinkOptions } from './smtp-sink-server.ts';

export type { SinkBehaviour, SinkRule, SinkStage, SinkStall } from './smtp-sink-behaviour.ts';
export type { HoldOptions, SinkMessage } from './smtp-sink-held.ts';
export type { SinkConnection } from './smtp-sink-log.ts';
export type { SmtpSinkOptions } from './smtp-sink-server.ts';
export { makeDkimKey, verifyDkim, type TestDkimKey } from './smtp-sink-dkim.ts';

const DEFAULT_HOST = '127.0.0.1';
const BIND_ATTEMPTS = 20;

export class SmtpSink {
  readonly #log = new ConnectionLog();
  readonly #acceptance = new SinkAcceptance((sessionId, secure) => this.#log.accepted(sessionId, secure));
  /** Accepted messages: their 250 was written to an open connection. */
  readonly messages: SinkMessage[] = this.#acceptance.messages;
  /** Received in full while replies were held, but the client's connection closed before the 250. */
  readonly abandoned: SinkMessage[] = this.#acceptance.abandoned;
  readonly #rules = new Map<string, SinkRule>();
  readonly #servers: SMTPServer[];
  readonly #hosts: string[];
  /** Every connection seen since the last reset (open ones included). */
  readonly connections: SinkConnection[] = this.#log.connections;
  readonly #behaviours: SinkBehaviours;

  private constructor(options: SmtpSinkOptions) {
    this.#hosts = options.hosts ?? [options.host ?? DEFAULT_HOST];
    if (this.#hosts.length === 0) throw new Error('sink: hosts is empty');
    this.#behaviours = new SinkBehaviours(options.behaviour);
    const parts: SinkParts = {
      log: this.#log,
      behaviours: this.#behaviours,
      acceptance: this.#acceptance,
      ruleFor: (recipient, stage) => this.ruleFor(recipient, stage),
      onMessage: (session, raw, callback) => this.onMessage(session, raw, callback),
    };
    // One server per address, all with the same handlers and state. smtp-server changes the options
    // object it is given, so each gets its own.
    this.#servers = this.#hosts.map(() => createSinkServer(options, parts));
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
    this.#behaviours.reset();
    this.#acceptance.clear();
    this.resetConnections();
  }

  /**
   * How `address` (every address when omitted) treats connections from now on; null drops it. An
   * address's own behaviour wins field by field over the one for every address. Connections stalled
   * by a stall that no longer applies carry on (greeting sent, DATA answered by the rules).
   */
  setBehaviour(behaviour: SinkBehaviour | null, address: string = ANY): void {
    this.#behaviours.set(behaviour, address);
  }

  /** Forget the closed connections; the peaks start again from the connections open now. */
  resetConnections(): void {
    this.#log.reset();
  }

  /** The most connections open at once, over every address (refused ones included while open). */
  get peakConnections(): number {
    return this.#log.peak;
  }

  /** The most connections open at once on each address that saw any. */
  peakConnectionsByAddress(): Map<string, number> {
    return this.#log.peakByAddress();
  }

  /** Connections whose client sent QUIT. */
  get quitCount(): number {
    return this.#log.quitCount;
  }

  /** Accepted messages per connection, over the connections that carried at least one (0 if none did). */
  messagesPerConnection(): number {
    return this.#log.messagesPerConnection();
  }

  /** Connections being stalled now (at greeting or after DATA). */
  get stalledCount(): number {
    return this.#behaviours.stalledCount;
  }

  /**
   * From now on (or once `afterRecorded` messages are recorded), a message that would be accepted is
   * received in full but its 250 is held until releaseReplies(). Refusals by rule are not held.
   */
  holdReplies(options: HoldOptions = {}): void {
    this.#acceptance.hold(options);
  }

  /** Stops holding and sends each held 250; a message whose client has gone is not recorded. */
  releaseReplies(): void {
    this.#acceptance.release();
  }

  /** Messages received in full whose 250 is being held (their connections still open). */
  get heldCount(): number {
    return this.#acceptance.heldCount;
  }

  /** Open client connections. */
  get openConnections(): number {
    return this.#acceptance.openCount;
  }

  /** Waits until `predicate` holds, polling every 10 ms; `what` names it in the timeout error. */
  async waitFor(predicate: (sink: SmtpSink) => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this)) {
      if (Date.now() > deadline) {
        throw new Error(
          `sink: ${what} not reached within ${timeoutMs} ms (recorded ${this.messages.length}, held ${this.#acceptance.heldCount}, abandoned ${this.abandoned.length})`,
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
    this.#behaviours.refuseAll(() => new SmtpReplyError(421, '4.3.2 Server shutting down'));
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
      const refused = refusal(this.ruleFor(recipient, 'data'));
      if (refused) {
        callback(refused);
        return;
      }
    }
    const from = session.envelope.mailFrom;
    // Captured now: smtp-server resets the session's envelope once the reply is sent.
    this.#acceptance.receive({
      sessionId: session.id,
      message: {
        envelope: { from: from === false ? '' : from.address, to },
        raw,
        secure: session.secure,
        user: typeof session.user === 'string' ? session.user : null,
        heloName: session.hostNameAppearsAs,
      },
      reply: callback,
    });
  }
}

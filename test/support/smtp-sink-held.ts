// The SMTP sink's acceptance point (test/support/smtp-sink.ts): a message is recorded once its 250 is
// written to a connection still open; a held reply whose client leaves first makes it abandoned.

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

export interface HoldOptions {
  /** Start holding only once this many messages have been recorded (default 0: at once). */
  afterRecorded?: number;
}

export interface HeldReply {
  sessionId: string;
  message: SinkMessage;
  reply: (error?: Error | null) => void;
}

export class SinkAcceptance {
  /** Accepted messages: their 250 was written to an open connection. */
  readonly messages: SinkMessage[] = [];
  /** Received in full while replies were held, but the client's connection closed before the 250. */
  readonly abandoned: SinkMessage[] = [];
  /** Ids of the sessions whose connection is open. */
  readonly #open = new Set<string>();
  #hold: Required<HoldOptions> | null = null;
  #held: HeldReply[] = [];
  /** Told of every message accepted, with its session's id and whether the session was TLS. */
  readonly #onAccepted: (sessionId: string, secure: boolean) => void;

  constructor(onAccepted: (sessionId: string, secure: boolean) => void) {
    this.#onAccepted = onAccepted;
  }

  opened(sessionId: string): void {
    this.#open.add(sessionId);
  }

  closed(sessionId: string): void {
    this.#open.delete(sessionId);
    // The client is gone: whatever it was waiting for was never accepted.
    const gone = this.#held.filter((held) => held.sessionId === sessionId);
    if (gone.length === 0) return;
    this.#held = this.#held.filter((held) => held.sessionId !== sessionId);
    for (const held of gone) this.abandoned.push(held.message);
  }

  hold(options: HoldOptions): void {
    this.#hold = { afterRecorded: options.afterRecorded ?? 0 };
  }

  /** Stops holding and sends each held 250; a message whose client has gone is not recorded. */
  release(): void {
    this.#hold = null;
    const held = this.#held;
    this.#held = [];
    for (const entry of held) this.#accept(entry);
  }

  get heldCount(): number {
    return this.#held.length;
  }

  get openCount(): number {
    return this.#open.size;
  }

  /** A message received in full that no rule refused: accepted now, or held while holding. */
  receive(entry: HeldReply): void {
    if (this.#hold !== null && this.messages.length >= this.#hold.afterRecorded) {
      this.#held.push(entry);
      return;
    }
    this.#accept(entry);
  }

  /** Forget the recorded and abandoned messages. */
  clear(): void {
    this.messages.length = 0;
    this.abandoned.length = 0;
  }

  /** The acceptance point: record the message and write its 250, only if its client is still there. */
  #accept(entry: HeldReply): void {
    if (!this.#open.has(entry.sessionId)) {
      this.abandoned.push(entry.message);
      return;
    }
    this.messages.push(entry.message);
    this.#onAccepted(entry.sessionId, entry.message.secure);
    entry.reply(null);
  }
}

// The mail transport: hands one raw, signed message to the outside world for an SMTP envelope and
// says what happened to each recipient. The caller (the delivery worker) decides what to do with a
// temporary outcome (retry later) or a permanent one (bounce); a transport never retries on its own
// beyond trying the next MX host.

export interface Envelope {
  /** MAIL FROM: the per-email return path. */
  from: string;
  /** RCPT TO: every recipient, Bcc included. */
  to: string[];
}

export type RecipientStatus = 'accepted' | 'temporary' | 'permanent';

export interface RecipientOutcome {
  recipient: string;
  /** accepted: 2xx; temporary: 4xx, connection or DNS failure; permanent: 5xx or no mail host. */
  status: RecipientStatus;
  /** The SMTP reply text (e.g. `250 2.0.0 Ok: queued as …`) or what went wrong before a reply. */
  response: string;
  /** The reply code when a server answered. */
  responseCode?: number;
  /** The host that answered, for the `direct` transport (an MX name) and the relay. */
  host?: string;
  /**
   * Temporary outcomes only: the destination is backed off until then (a 421, refused connections,
   * timeouts, rate answers). The message is not to blame: its attempt does not count, and it waits
   * for the destination rather than for its own retry.
   */
  destinationPausedUntil?: Date;
  /**
   * Temporary only: the message was offered to no host, because its destination is paused, or busy
   * (no session came free within the wait): back to the queue meanwhile.
   */
  notAttempted?: 'paused' | 'busy';
}

export interface DeliveryResult {
  /** One entry per envelope recipient, in envelope order. */
  recipients: RecipientOutcome[];
}

export interface MailTransport {
  readonly kind: 'log' | 'smtp' | 'direct';
  send(envelope: Envelope, raw: Buffer): Promise<DeliveryResult>;
  /**
   * Before a message is built: when every recipient's destination is paused, what send would answer
   * (notAttempted outcomes), so the message goes back to the queue unbuilt; else null.
   */
  handBack?(to: string[]): Promise<RecipientOutcome[] | null>;
  close(): Promise<void>;
}

/** A destination's back-off, shared by every worker process of the deployment. */
export interface DestinationBackoff {
  /** No new message before then (in the past when the destination is only held to fewer connections). */
  pausedUntil: Date;
  /** The destination's connection limit while it recovers. */
  connections: number;
  /** Pauses in a row; each one doubles the next. */
  failures: number;
  reason: string;
}

/** What went wrong with a destination: a lower connection limit, and a pause when nothing got through. */
export interface DestinationTrouble {
  reason: string;
  connections: number;
  pause: boolean;
}

/**
 * Where the `direct` transport keeps what every worker process must agree on: the connection slots
 * held to each destination (so its limit holds across processes) and its back-off. The database
 * keeps it in production (src/destinations/); memoryDestinationLedger serves one process alone.
 */
export interface DestinationLedger {
  /** One of the destination's slots below `limit` (or the back-off's lower limit), none while it is paused, or null; and its back-off. */
  takeSlot(destination: string, limit: number): Promise<{ slot: number | null; backoff: DestinationBackoff | null }>;
  releaseSlot(destination: string, slot: number): Promise<void>;
  /** The destination misbehaved: its connections go down, and with `pause` its pause doubles. */
  recordTrouble(destination: string, trouble: DestinationTrouble): Promise<DestinationBackoff>;
  /** A message went through after trouble: one more connection; at `limit` the back-off ends (null). */
  recordSuccess(destination: string, limit: number): Promise<DestinationBackoff | null>;
  close(): Promise<void>;
}

/** What the `log` transport hands to its caller; the caller stores it (outbox). */
export interface LoggedMessage {
  envelope: Envelope;
  raw: Buffer;
}

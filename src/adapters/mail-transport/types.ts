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
}

export interface DeliveryResult {
  /** One entry per envelope recipient, in envelope order. */
  recipients: RecipientOutcome[];
}

export interface MailTransport {
  readonly kind: 'log' | 'smtp' | 'direct';
  send(envelope: Envelope, raw: Buffer): Promise<DeliveryResult>;
  close(): Promise<void>;
}

/** What the `log` transport hands to its caller; the caller stores it (outbox). */
export interface LoggedMessage {
  envelope: Envelope;
  raw: Buffer;
}

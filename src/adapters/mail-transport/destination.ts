// One destination of the `direct` transport: a recipient domain's MX host set (domains hosted by the
// same provider share one). Its messages go over a pool of sessions under a connection limit held
// across the deployment (the ledger's slots), and its trouble (a 421, refused connections, timeouts,
// 4.7.x rate answers) backs the whole destination off: fewer connections, and when nothing gets
// through a pause that doubles, during which its messages are handed back uncounted.
import { describe, NoMailHost } from './mail-hosts.ts';
import { outcomesForAll, outcomesFromError, outcomesFromInfo } from './outcomes.ts';
import { PoolBusyError, SessionPool, type Admission } from './session-pool.ts';
import type { SmtpSession } from './smtp-session.ts';
import type { DestinationBackoff, DestinationLedger, DestinationTrouble, Envelope, RecipientOutcome } from './types.ts';

export interface DestinationContext {
  ledger: DestinationLedger;
  /** HERALD_DIRECT_MAX_CONNECTIONS. */
  maxConnections: number;
  /** Sessions this process may have open over every destination. */
  budget: { max: number; used: number };
  idleMs: number;
  /** How long a message may wait for a session before it is handed back. */
  waitMs: number;
  now: () => Date;
  /** Opens a session to the first host that takes one; throws the last host's error otherwise. */
  open: (hosts: string[], tls: DestinationTls) => Promise<SmtpSession>;
  onTrouble?: (destination: string, backoff: DestinationBackoff) => void;
}

/**
 * What TLS a destination's sessions need: opportunistic (RFC 7435), checked and only reported
 * (MTA-STS testing), or required with a valid certificate for the MX name (MTA-STS enforce).
 */
export type DestinationTls = 'opportunistic' | 'report' | 'enforce';

/** The back-off of a destination that is paused now, for the messages that find it so. */
class DestinationPaused extends Error {
  override name = 'DestinationPaused';
}

const CONNECTION_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'ETLS', 'EPROTOCOL', 'EDNS']);

/**
 * An answer that says "you are going too fast" (a 4.7.x status with words of rate), rather than
 * something about the message; greylisting (also 4.7.1 at times) is the message's own wait.
 */
function isRateAnswer(outcome: RecipientOutcome): boolean {
  return (
    outcome.status === 'temporary' &&
    /^4\d\d[ -]4\.7\.\d+/.test(outcome.response) &&
    /rate|too many|too fast|throttl|limit exceeded|try again in/i.test(outcome.response)
  );
}

/** A failure of the session rather than of the message: the server closed it (421) or it broke. */
function isSessionTrouble(error: unknown): boolean {
  const { responseCode, code } = error as { responseCode?: number; code?: string };
  return responseCode === 421 || (responseCode === undefined && CONNECTION_CODES.has(code ?? ''));
}

export class Destination {
  readonly key: string;
  readonly pool: SessionPool;
  backoff: DestinationBackoff | null = null;
  /** Figures for /metrics. */
  readonly counts = { messages: 0, deferrals: 0, postponed: 0 };
  readonly #context: DestinationContext;

  constructor(key: string, hosts: string[], tls: DestinationTls, context: DestinationContext) {
    this.key = key;
    this.#context = context;
    this.pool = new SessionPool({
      open: () => context.open(hosts, tls),
      limit: () => Math.min(context.maxConnections, this.backoff?.connections ?? context.maxConnections),
      admit: () => this.#admit(),
      idleMs: context.idleMs,
      waitMs: context.waitMs,
    });
  }

  get paused(): boolean {
    return this.backoff !== null && this.backoff.pausedUntil > this.#context.now();
  }

  /** What a message for this destination gets now without being offered: paused, or null. */
  handBack(recipients: string[]): RecipientOutcome[] | null {
    return this.paused ? this.#handBack(recipients) : null;
  }

  async deliver(envelope: Envelope, raw: Buffer): Promise<RecipientOutcome[]> {
    const recipients = envelope.to;
    const handedBack = this.handBack(recipients);
    if (handedBack !== null) return handedBack;
    let session: SmtpSession;
    try {
      session = await this.pool.acquire();
    } catch (error) {
      return this.#couldNotConnect(recipients, error);
    }
    let outcomes: RecipientOutcome[];
    let trouble: string | null = null;
    try {
      const info = await session.send(envelope, raw);
      outcomes = outcomesFromInfo(recipients, info, session.host);
    } catch (error) {
      outcomes = outcomesFromError(recipients, error, session.host);
      if (isSessionTrouble(error)) trouble = outcomes[0]!.response;
    } finally {
      this.pool.release(session);
    }
    this.counts.messages += 1;
    trouble ??= outcomes.find(isRateAnswer)?.response ?? null;
    if (trouble !== null) {
      const backoff = await this.#trouble({ reason: trouble, connections: this.#halved(), pause: true });
      return outcomes.map((o) =>
        o.status === 'temporary' ? { ...o, destinationPausedUntil: backoff.pausedUntil } : o,
      );
    }
    if (outcomes.some((o) => o.status === 'temporary')) this.counts.deferrals += 1;
    if (this.backoff !== null && outcomes.some((o) => o.status === 'accepted')) {
      this.backoff = await this.#context.ledger.recordSuccess(this.key, this.#context.maxConnections);
    }
    return outcomes;
  }

  close(): void {
    this.pool.close();
  }

  async #admit(): Promise<Admission | null> {
    const { budget, ledger } = this.#context;
    if (budget.used >= budget.max) return null;
    budget.used += 1;
    let slot: number | null = null;
    try {
      const taken = await ledger.takeSlot(this.key, this.#context.maxConnections);
      // Another process may have backed the destination off: its word holds here too (no slot then).
      this.backoff = taken.backoff;
      slot = taken.slot;
    } finally {
      if (slot === null) budget.used -= 1;
    }
    if (slot === null) {
      if (this.paused) throw new DestinationPaused(this.backoff!.reason);
      return null;
    }
    const held = slot;
    return () => {
      budget.used -= 1;
      ledger.releaseSlot(this.key, held).catch(() => {});
    };
  }

  /** No session: paused meanwhile, every session stayed busy, or no host took a connection. */
  async #couldNotConnect(recipients: string[], error: unknown): Promise<RecipientOutcome[]> {
    if (error instanceof DestinationPaused) return this.#handBack(recipients);
    if (error instanceof PoolBusyError) {
      // Not the destination's fault nor the message's: try again shortly, uncounted.
      const until = new Date(this.#context.now().getTime() + this.#context.waitMs);
      this.counts.postponed += recipients.length;
      return outcomesForAll(recipients, 'temporary', `${this.key}: ${error.message}`).map((o) => ({
        ...o,
        destinationPausedUntil: until,
        notAttempted: 'busy' as const,
      }));
    }
    if (error instanceof NoMailHost) return outcomesForAll(recipients, 'permanent', error.message);
    const { responseCode } = error as { responseCode?: number };
    // Every host refused the session for good (e.g. 554 at greeting): nothing will ever get through.
    const host = (error as { host?: string }).host;
    if (responseCode !== undefined && responseCode >= 500) return outcomesFromError(recipients, error, host);
    // Sessions already open show the host works: only fewer connections. None open: pause.
    const open = this.pool.size;
    const connections = open === 0 ? this.#halved() : open;
    const backoff = await this.#trouble({ reason: describe(error), connections, pause: open === 0 });
    const failed = outcomesFromError(recipients, error, host).map((o) => ({ ...o, status: 'temporary' as const }));
    return failed.map((o) => ({
      ...o,
      destinationPausedUntil: open === 0 ? backoff.pausedUntil : this.#context.now(),
    }));
  }

  #handBack(recipients: string[]): RecipientOutcome[] {
    const backoff = this.backoff!;
    this.counts.postponed += recipients.length;
    const response = `not tried: ${this.key} is backed off until ${backoff.pausedUntil.toISOString()} (${backoff.reason})`;
    return outcomesForAll(recipients, 'temporary', response).map((o) => ({
      ...o,
      destinationPausedUntil: backoff.pausedUntil,
      notAttempted: 'paused' as const,
    }));
  }

  /** Half the connections allowed now. */
  #halved(): number {
    const allowed = Math.min(this.#context.maxConnections, this.backoff?.connections ?? this.#context.maxConnections);
    return Math.floor(allowed / 2);
  }

  async #trouble(trouble: DestinationTrouble): Promise<DestinationBackoff> {
    // Sessions failing together (a receiver closing them all with 421) are one trouble, not several.
    if (trouble.pause && this.paused) return this.backoff!;
    this.backoff = await this.#context.ledger.recordTrouble(this.key, {
      ...trouble,
      connections: Math.max(1, trouble.connections),
    });
    this.counts.deferrals += 1;
    this.#context.onTrouble?.(this.key, this.backoff);
    return this.backoff;
  }
}

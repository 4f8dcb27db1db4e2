// Who may hold one of the listener's connections: the per-address and per-network limits
// (connection-limits.ts), the wait for a first command (a client that takes the greeting and says
// nothing is closed after greetingTimeoutMs; one that talks keeps RFC 5321's idle timeout between
// transactions), the idle budget of a mail transaction (a client that opened one and stopped making
// progress is closed after transactionIdleMs, issue 41), and, at maxClients, room made for a new
// connection by closing the idlest admitted one whatever its state (open-connections.ts), so that
// neither idle connections nor open transactions can lock senders out (issues 23 and 41).
import type { Logger } from 'pino';
import type { SMTPServerSession } from 'smtp-server';
import { ConnectionLimits, type AdmissionRefusal } from './connection-limits.ts';
import { OpenConnections, type IdleKind } from './open-connections.ts';
import type { SmtpConnectionConfig } from '../config/smtp.ts';
import type { SmtpMetrics } from './smtp-metrics.ts';

/** The listener's connection limits (HERALD_SMTP_*, src/config/smtp.ts); the idle timeout is smtp-server's. */
export type AdmissionLimits = Omit<SmtpConnectionConfig, 'idleTimeoutMs'>;

/**
 * DATA bytes that count as progress. A byte dribbled every few seconds must not renew the budget
 * forever, so progress in DATA is this many bytes since the last progress: a sender must keep up
 * DATA_PROGRESS_BYTES per transactionIdleMs (4 KiB in 10 s, about 3 kbit/s, which any link that
 * carries mail does), while a dribbler that holds a place must pay for it in bandwidth and is
 * closed one budget after its last 4 KiB. A message shorter than this counts its final dot instead.
 */
export const DATA_PROGRESS_BYTES = 4096;

interface AdmissionOptions {
  limits: AdmissionLimits;
  metrics: SmtpMetrics;
  logger: Logger;
  /** Milliseconds since the epoch, for the per-minute limits; tests move it. */
  now?: () => number;
  /** Answers 421 with `message` on the session's connection, which closes it. */
  close(sessionId: string, message: string): void;
}

interface Admitted {
  session: SMTPServerSession;
  /** The wait for the first command; once the client has talked, the idle budget of a transaction. */
  timer: NodeJS.Timeout;
  talked: boolean;
  /** The client waits for our reply (a recipient lookup, the spool write before the 250 to DATA). */
  awaitingReply: boolean;
  /** DATA bytes since the connection's last progress. */
  dataSinceProgress: number;
}

const REFUSALS: Record<AdmissionRefusal | 'full', string> = {
  rate: 'Too many connections from your address, try again later',
  concurrency: 'Too many connections from your address, try again later',
  network_rate: 'Too many connections from your network, try again later',
  network_concurrency: 'Too many connections from your network, try again later',
  full: 'Too busy, try again later',
};

/** Inside a mail transaction: MAIL FROM accepted, until the reply to DATA (or RSET) resets the envelope. */
const inTransaction = (entry: Admitted) => entry.session.envelope.mailFrom !== false;

function kindOf(entry: Admitted): IdleKind | 'awaiting_reply' {
  if (entry.awaitingReply) return 'awaiting_reply';
  if (!entry.talked) return 'silent';
  return inTransaction(entry) ? 'transaction' : 'idle';
}

export class ListenerAdmission {
  readonly #options: AdmissionOptions;
  readonly #limits: ConnectionLimits;
  readonly #open = new OpenConnections<Admitted>(kindOf);

  constructor(options: AdmissionOptions) {
    this.#options = options;
    const { limits } = options;
    this.#limits = new ConnectionLimits({
      perMinutePerAddress: limits.connectionsPerMinutePerAddress,
      concurrentPerAddress: limits.maxConnectionsPerAddress,
      perMinutePerNetwork: limits.connectionsPerMinutePerNetwork,
      concurrentPerNetwork: limits.maxConnectionsPerNetwork,
      now: options.now,
    });
  }

  /** null when the session is admitted (give it back with closed()); otherwise the text of a 421. */
  admit(session: SMTPServerSession): string | null {
    const { limits, metrics } = this.#options;
    const refusal = this.#limits.admit(session.remoteAddress);
    if (refusal !== null) return this.#refused(session, refusal);
    if (this.#open.size >= limits.maxClients && !this.#makeRoom()) {
      this.#limits.release(session.remoteAddress);
      return this.#refused(session, 'full');
    }
    const timer = setTimeout(
      () => this.#drop(session.id, 'greeting_timeout', 'Timeout waiting for a command, closing connection'),
      limits.greetingTimeoutMs,
    );
    timer.unref();
    this.#open.add(session.id, { session, timer, talked: false, awaitingReply: false, dataSinceProgress: 0 });
    metrics.connections.inc({ result: 'accepted' });
    metrics.open.inc();
    return null;
  }

  /**
   * A command arrived. Between transactions any command is progress; inside one only the steps
   * that move it on are (progress()), so NOOPs cannot keep an open transaction alive.
   */
  commandSeen(sessionId: string): void {
    const entry = this.#open.get(sessionId);
    if (entry === undefined) return;
    if (!entry.talked) {
      // From now on RFC 5321's idle timeout applies between transactions, the budget inside one.
      entry.talked = true;
      clearTimeout(entry.timer);
      entry.timer = setTimeout(() => this.#budgetSpent(sessionId), this.#options.limits.transactionIdleMs);
      entry.timer.unref();
    }
    if (!inTransaction(entry)) this.progress(sessionId);
  }

  /** The transaction moved on (MAIL FROM or a recipient accepted, DATA begun, our reply to DATA): its budget starts again. */
  progress(sessionId: string): void {
    const entry = this.#open.get(sessionId);
    if (entry === undefined) return;
    entry.dataSinceProgress = 0;
    this.#open.progressed(sessionId);
    if (entry.talked) entry.timer.refresh();
  }

  /** `bytes` more of the message arrived: progress once they add up to DATA_PROGRESS_BYTES. */
  dataReceived(sessionId: string, bytes: number): void {
    const entry = this.#open.get(sessionId);
    if (entry === undefined) return;
    entry.dataSinceProgress += bytes;
    if (entry.dataSinceProgress >= DATA_PROGRESS_BYTES) this.progress(sessionId);
  }

  /** The client waits for our reply (true) or has it (false); meanwhile it is neither idle nor over budget. */
  awaitingReply(sessionId: string, waiting: boolean): void {
    const entry = this.#open.get(sessionId);
    if (entry !== undefined) entry.awaitingReply = waiting;
  }

  /** The session's socket closed; a session the listener already dropped was given back then. */
  closed(sessionId: string): void {
    const entry = this.#open.remove(sessionId);
    if (entry !== undefined) this.#forget(entry);
  }

  #refused(session: SMTPServerSession, refusal: AdmissionRefusal | 'full'): string {
    this.#options.metrics.connections.inc({ result: `refused_${refusal}` });
    // Debug, not info: the counter records refusals, and a flood must not become a log flood.
    this.#options.logger.debug({ remoteAddress: session.remoteAddress, refusal }, 'smtp connection refused');
    return REFUSALS[refusal];
  }

  /** The budget ran out since the last progress: only a connection inside a transaction pays for it. */
  #budgetSpent(sessionId: string): void {
    const entry = this.#open.get(sessionId);
    if (entry === undefined) return;
    // We are the slow one: the client gets a whole budget again once it has our reply.
    if (entry.awaitingReply) {
      entry.timer.refresh();
      return;
    }
    // Between transactions smtp-server's idle timeout applies; progress() arms the budget again.
    if (!inTransaction(entry)) return;
    this.#drop(sessionId, 'transaction_timeout', 'Timeout: no progress in the mail transaction, closing connection');
  }

  /** Closes the idlest connection to make room; false when every connection is waiting for our reply. */
  #makeRoom(): boolean {
    const idlest = this.#open.takeIdlest();
    if (idlest === null) return false;
    this.#forget(idlest.connection);
    this.#options.metrics.closedByListener.inc({ reason: `evicted_${idlest.kind}` });
    this.#options.logger.debug(
      { remoteAddress: idlest.connection.session.remoteAddress, kind: idlest.kind },
      'smtp listener full: idlest connection closed',
    );
    this.#options.close(idlest.id, 'Too busy, closing idle connection');
    return true;
  }

  #drop(sessionId: string, reason: 'greeting_timeout' | 'transaction_timeout', message: string): void {
    const entry = this.#open.remove(sessionId);
    if (entry === undefined) return;
    this.#forget(entry);
    this.#options.metrics.closedByListener.inc({ reason });
    this.#options.close(sessionId, message);
  }

  /** Gives the connection's place back at once: its socket may take a moment more to close. */
  #forget(entry: Admitted): void {
    clearTimeout(entry.timer);
    this.#limits.release(entry.session.remoteAddress);
    this.#options.metrics.open.dec();
  }
}

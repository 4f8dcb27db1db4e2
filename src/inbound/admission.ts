// Who may hold one of the listener's connections: the per-address and per-network limits
// (connection-limits.ts), the wait for a first command (a client that takes the greeting and says
// nothing is closed after greetingTimeoutMs; one that talks keeps RFC 5321's idle timeout), and, at
// maxClients, room made for a new connection by closing the idlest admitted one (open-connections.ts),
// so that idle connections can never lock senders out (issue 23).
import type { Logger } from 'pino';
import type { SMTPServerSession } from 'smtp-server';
import { ConnectionLimits, type AdmissionRefusal } from './connection-limits.ts';
import { OpenConnections } from './open-connections.ts';
import type { SmtpConnectionConfig } from '../config/smtp.ts';
import type { SmtpMetrics } from './smtp-metrics.ts';

/** The listener's connection limits (HERALD_SMTP_*, src/config/smtp.ts); the idle timeout is smtp-server's. */
export type AdmissionLimits = Omit<SmtpConnectionConfig, 'idleTimeoutMs'>;

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
  greetingTimer: NodeJS.Timeout | null;
}

const REFUSALS: Record<AdmissionRefusal | 'full', string> = {
  rate: 'Too many connections from your address, try again later',
  concurrency: 'Too many connections from your address, try again later',
  network_rate: 'Too many connections from your network, try again later',
  network_concurrency: 'Too many connections from your network, try again later',
  full: 'Too busy, try again later',
};

/** Inside a mail transaction: MAIL FROM accepted, until the reply to DATA resets the envelope. */
const inTransaction = (entry: Admitted) => entry.session.envelope.mailFrom !== false;

export class ListenerAdmission {
  readonly #options: AdmissionOptions;
  readonly #limits: ConnectionLimits;
  readonly #open = new OpenConnections<Admitted>(inTransaction);

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
    const greetingTimer = setTimeout(
      () => this.#drop(session.id, 'greeting_timeout', 'Timeout waiting for a command, closing connection'),
      limits.greetingTimeoutMs,
    );
    greetingTimer.unref();
    this.#open.add(session.id, { session, greetingTimer });
    metrics.connections.inc({ result: 'accepted' });
    metrics.open.inc();
    return null;
  }

  /** A command arrived: the client is talking, so RFC 5321's idle timeout applies from now on. */
  commandSeen(sessionId: string): void {
    if (!this.#open.commandSeen(sessionId)) return;
    const entry = this.#open.get(sessionId)!;
    clearTimeout(entry.greetingTimer ?? undefined);
    entry.greetingTimer = null;
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

  /** Closes the idlest connection to make room; false when every connection is mid-transaction. */
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

  #drop(sessionId: string, reason: 'greeting_timeout', message: string): void {
    const entry = this.#open.remove(sessionId);
    if (entry === undefined) return;
    this.#forget(entry);
    this.#options.metrics.closedByListener.inc({ reason });
    this.#options.close(sessionId, message);
  }

  /** Gives the connection's place back at once: its socket may take a moment more to close. */
  #forget(entry: Admitted): void {
    clearTimeout(entry.greetingTimer ?? undefined);
    entry.greetingTimer = null;
    this.#limits.release(entry.session.remoteAddress);
    this.#options.metrics.open.dec();
  }
}

// The open sessions to one destination (a relay, or a recipient domain's MX hosts): several messages
// per session, a session kept `idleMs` for the next message and then ended with QUIT, at most
// `limit()` sessions at once. Before a session is opened, `admit` may say no (every connection slot
// of the deployment for this destination is held, or the process's own budget is spent): the caller
// then waits for a session of its own to come free, or looks again a moment later.
import type { SmtpSession } from './smtp-session.ts';

/** Given back when the session closes: the slot or budget `admit` granted. */
export type Admission = () => void;

export interface SessionPoolOptions {
  open: () => Promise<SmtpSession>;
  /** How many sessions may be open at once now (back-off lowers it). */
  limit: () => number;
  /** Null: not now. Default: always admitted. */
  admit?: () => Promise<Admission | null>;
  idleMs: number;
  /** How long an acquire may wait for a session before giving up. */
  waitMs: number;
}

/** Every session of the destination stayed busy (or no slot came free) for the whole wait. */
export class PoolBusyError extends Error {
  override name = 'PoolBusyError';
}

const ADMIT_RETRY_MS = 100;

interface Held {
  admission: Admission;
  idleTimer: NodeJS.Timeout | null;
}

export class SessionPool {
  readonly #options: SessionPoolOptions;
  readonly #idle: SmtpSession[] = [];
  readonly #held = new Map<SmtpSession, Held>();
  /** Sessions open, being opened or being handed out. */
  #count = 0;
  #waiters: (() => void)[] = [];
  #closed = false;
  /** Sessions opened over the pool's life (for messages-per-connection figures). */
  opened = 0;

  constructor(options: SessionPoolOptions) {
    this.#options = options;
  }

  /** Sessions open now (idle or in use). */
  get size(): number {
    return this.#count;
  }

  get idleCount(): number {
    return this.#idle.length;
  }

  /** A session ready for a MAIL FROM: an idle one after RSET, or a new one. Throws PoolBusyError after waitMs. */
  async acquire(): Promise<SmtpSession> {
    const deadline = Date.now() + this.#options.waitMs;
    for (;;) {
      if (this.#closed) throw new PoolBusyError('the transport is closing');
      const idle = this.#idle.pop();
      if (idle !== undefined) {
        this.#stopIdleTimer(idle);
        // A server may have dropped a session that waited: RSET finds out before a message is at stake.
        const alive = await idle.reset().then(
          () => true,
          () => false,
        );
        if (alive) return idle;
        this.#discard(idle);
        continue;
      }
      if (this.#count < this.#options.limit()) {
        this.#count += 1;
        let admission: Admission | null;
        try {
          admission = this.#options.admit === undefined ? () => {} : await this.#options.admit();
        } catch (error) {
          this.#count -= 1;
          throw error;
        }
        if (admission !== null) return this.#openAdmitted(admission);
        this.#count -= 1;
        await this.#wait(Math.min(ADMIT_RETRY_MS, Math.max(0, deadline - Date.now())));
      } else {
        await this.#wait(Math.max(0, deadline - Date.now()));
      }
      if (Date.now() >= deadline) throw new PoolBusyError('no session came free in time');
    }
  }

  /** Back after a message: kept for the next one while usable, else closed. */
  release(session: SmtpSession): void {
    if (!session.usable || this.#closed || this.#count > this.#options.limit()) {
      this.#discard(session);
      return;
    }
    const held = this.#held.get(session);
    if (held === undefined) return;
    held.idleTimer = setTimeout(() => {
      const index = this.#idle.indexOf(session);
      if (index === -1) return;
      this.#idle.splice(index, 1);
      this.#discard(session);
    }, this.#options.idleMs);
    held.idleTimer.unref();
    this.#idle.push(session);
    this.#wakeOne();
  }

  /** Ends every idle session with QUIT; sessions in use are ended when they come back. */
  close(): void {
    this.#closed = true;
    for (const session of this.#idle.splice(0)) this.#discard(session);
    for (const wake of this.#waiters.splice(0)) wake();
  }

  async #openAdmitted(admission: Admission): Promise<SmtpSession> {
    try {
      const session = await this.#options.open();
      this.opened += 1;
      this.#held.set(session, { admission, idleTimer: null });
      return session;
    } catch (error) {
      this.#count -= 1;
      admission();
      this.#wakeOne();
      throw error;
    }
  }

  #discard(session: SmtpSession): void {
    const held = this.#held.get(session);
    if (held === undefined) return;
    this.#held.delete(session);
    this.#stopIdleTimer(session);
    session.quit();
    this.#count -= 1;
    held.admission();
    this.#wakeOne();
  }

  #stopIdleTimer(session: SmtpSession): void {
    const held = this.#held.get(session);
    if (held?.idleTimer) clearTimeout(held.idleTimer);
    if (held) held.idleTimer = null;
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters = this.#waiters.filter((w) => w !== wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#waiters.push(wake);
    });
  }

  #wakeOne(): void {
    this.#waiters.shift()?.();
  }
}

// Per-client admission for the inbound SMTP listener: connections per minute and connections open at
// once, per client address. The listener is an open MX, so these are what keep one sender (or one
// botnet host) from holding every socket or every handler. In memory, per process: each `herald smtp`
// process guards itself, which is what matters for sockets and file descriptors.
import ipaddr from 'ipaddr.js';

type AdmissionRefusal = 'rate' | 'concurrency';

interface ConnectionLimitsOptions {
  /** New connections a client may open in any 60 s (approximately; see below). */
  perMinute: number;
  /** Connections a client may hold open at once. */
  concurrent: number;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

const WINDOW_MS = 60_000;

/**
 * The client a connection is counted against: the IPv4 address, or the /64 of an IPv6 one, because
 * a single IPv6 host is routinely handed a whole /64 and could otherwise rotate addresses freely.
 * IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
function clientKey(remoteAddress: string): string {
  if (!ipaddr.isValid(remoteAddress)) return remoteAddress;
  const address = ipaddr.process(remoteAddress);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}

export class ConnectionLimits {
  readonly #perMinute: number;
  readonly #concurrent: number;
  readonly #now: () => number;
  /**
   * Two fixed windows, weighted ("sliding window counter"): the estimate for the last 60 s is the
   * current window's count plus the previous window's count scaled by how much of it still overlaps.
   * Memory is two maps of the clients seen in the last two minutes, and there is no burst of 2x the
   * limit at a window boundary as with one fixed window.
   */
  #windowStart = 0;
  #current = new Map<string, number>();
  #previous = new Map<string, number>();
  readonly #open = new Map<string, number>();

  constructor(options: ConnectionLimitsOptions) {
    this.#perMinute = options.perMinute;
    this.#concurrent = options.concurrent;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Counts a connection attempt of `remoteAddress` and says whether it may proceed. Refused attempts
   * count too: a client that keeps hammering stays refused until it slows down. An admitted
   * connection must be given back with release() when it closes.
   */
  admit(remoteAddress: string): AdmissionRefusal | null {
    const key = clientKey(remoteAddress);
    const now = this.#now();
    this.#rotate(now);
    const attempts = (this.#current.get(key) ?? 0) + 1;
    this.#current.set(key, attempts);
    const overlap = 1 - (now - this.#windowStart) / WINDOW_MS;
    const estimate = attempts + (this.#previous.get(key) ?? 0) * overlap;
    if (estimate > this.#perMinute) return 'rate';
    const open = this.#open.get(key) ?? 0;
    if (open >= this.#concurrent) return 'concurrency';
    this.#open.set(key, open + 1);
    return null;
  }

  release(remoteAddress: string): void {
    const key = clientKey(remoteAddress);
    const open = this.#open.get(key) ?? 0;
    // Deleting at zero keeps the map as small as the set of clients connected right now.
    if (open <= 1) this.#open.delete(key);
    else this.#open.set(key, open - 1);
  }

  /** Connections currently admitted and not yet released, over all clients. */
  get openConnections(): number {
    let total = 0;
    for (const count of this.#open.values()) total += count;
    return total;
  }

  #rotate(now: number): void {
    const elapsed = now - this.#windowStart;
    if (elapsed < WINDOW_MS) return;
    // One window later the current counts become the previous ones; two or more, both are stale.
    this.#previous = elapsed < 2 * WINDOW_MS ? this.#current : new Map();
    this.#current = new Map();
    this.#windowStart = now - (elapsed % WINDOW_MS);
  }
}

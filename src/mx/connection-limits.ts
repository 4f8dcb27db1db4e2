// Per-client admission for the inbound SMTP listener: connections per minute and connections open at
// once, per client address and per client network. The listener is an open MX, so these are what keep
// one sender (or one botnet host, or one IPv6 /64 of thousands of addresses) from holding every socket
// or every handler. In memory, per process: each `herald smtp` process guards itself, which is what
// matters for sockets and file descriptors.
import ipaddr from 'ipaddr.js';

/** Which rule refused a connection: per address or per network, per minute or at once. */
export type AdmissionRefusal = 'rate' | 'concurrency' | 'network_rate' | 'network_concurrency';

export interface ConnectionLimitsOptions {
  /** New connections one address may open in any 60 s (approximately; see AttemptWindow). */
  perMinutePerAddress: number;
  /** Connections one address may hold open at once. */
  concurrentPerAddress: number;
  /** The same two limits over the address's network (IPv4 /24, IPv6 /64). */
  perMinutePerNetwork: number;
  concurrentPerNetwork: number;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

const WINDOW_MS = 60_000;

/** The address as one key: IPv4-mapped IPv6 addresses count as their IPv4 address, IPv6 in canonical form. */
export function addressKey(remoteAddress: string): string {
  if (!ipaddr.isValid(remoteAddress)) return remoteAddress;
  return ipaddr.process(remoteAddress).toNormalizedString();
}

/**
 * The network an address belongs to: its IPv4 /24, or its IPv6 /64, because a single IPv6 host is
 * routinely handed a whole /64 and could otherwise rotate addresses freely.
 */
export function networkKey(remoteAddress: string): string {
  if (!ipaddr.isValid(remoteAddress)) return remoteAddress;
  const address = ipaddr.process(remoteAddress);
  if (address.kind() === 'ipv4') {
    const [a, b, c] = (address as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0/24`;
  }
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}

/**
 * Attempts per key over the last minute, as two fixed windows weighted ("sliding window counter"):
 * the estimate is the current window's count plus the previous window's count scaled by how much of
 * it still overlaps. Memory is two maps of the keys seen in the last two minutes, and there is no
 * burst of 2x the limit at a window boundary as with one fixed window.
 */
class AttemptWindow {
  #windowStart = 0;
  #current = new Map<string, number>();
  #previous = new Map<string, number>();

  /** Counts one attempt of `key` at `now` and returns the estimate for the last 60 s, this one included. */
  count(key: string, now: number): number {
    this.#rotate(now);
    const attempts = (this.#current.get(key) ?? 0) + 1;
    this.#current.set(key, attempts);
    const overlap = 1 - (now - this.#windowStart) / WINDOW_MS;
    return attempts + (this.#previous.get(key) ?? 0) * overlap;
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

/** Open connections per key; a key at zero is deleted, so the map is as small as the set of clients connected now. */
class OpenCounts {
  readonly #open = new Map<string, number>();

  get(key: string): number {
    return this.#open.get(key) ?? 0;
  }

  add(key: string): void {
    this.#open.set(key, this.get(key) + 1);
  }

  remove(key: string): void {
    const open = this.get(key);
    if (open <= 1) this.#open.delete(key);
    else this.#open.set(key, open - 1);
  }
}

export class ConnectionLimits {
  readonly #options: Required<ConnectionLimitsOptions>;
  readonly #addressAttempts = new AttemptWindow();
  readonly #networkAttempts = new AttemptWindow();
  readonly #addressOpen = new OpenCounts();
  readonly #networkOpen = new OpenCounts();

  constructor(options: ConnectionLimitsOptions) {
    this.#options = { ...options, now: options.now ?? Date.now };
  }

  /**
   * Counts a connection attempt of `remoteAddress` and says whether it may proceed. Refused attempts
   * count too (against the address and its network): a client that keeps hammering stays refused
   * until it slows down. An admitted connection must be given back with release() when it closes.
   */
  admit(remoteAddress: string): AdmissionRefusal | null {
    const address = addressKey(remoteAddress);
    const network = networkKey(remoteAddress);
    const now = this.#options.now();
    const byAddress = this.#addressAttempts.count(address, now);
    const byNetwork = this.#networkAttempts.count(network, now);
    if (byAddress > this.#options.perMinutePerAddress) return 'rate';
    if (byNetwork > this.#options.perMinutePerNetwork) return 'network_rate';
    if (this.#addressOpen.get(address) >= this.#options.concurrentPerAddress) return 'concurrency';
    if (this.#networkOpen.get(network) >= this.#options.concurrentPerNetwork) return 'network_concurrency';
    this.#addressOpen.add(address);
    this.#networkOpen.add(network);
    return null;
  }

  release(remoteAddress: string): void {
    this.#addressOpen.remove(addressKey(remoteAddress));
    this.#networkOpen.remove(networkKey(remoteAddress));
  }
}

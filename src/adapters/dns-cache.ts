// A bounded, per-process cache of DNS answers for direct delivery, which otherwise asks for the same
// MX, A and AAAA records for every message. Answers live for their TTL (within bounds), "no such
// record" for a minute (RFC 2308's negative caching), temporary failures not at all. TXT passes
// through: DKIM keys and domain verification must see a change as soon as it is published.
import { type AddressWithTtl, DnsLookupError, type DnsResolver, type MxRecord } from './dns.ts';

/** node:dns cannot report an MX record's TTL, so MX answers are kept this long. */
const MX_TTL_MS = 300_000;
/** For A/AAAA from a resolver that gives no TTLs (a wrapper or fake without resolve4WithTtl). */
const UNKNOWN_TTL_MS = 300_000;
const MIN_TTL_MS = 1_000;
// A record with a TTL of days is still re-asked hourly, so a moved mail host is found the same day.
const MAX_TTL_MS = 3_600_000;
const NEGATIVE_TTL_MS = 60_000;

export interface DnsCacheStats {
  /** Lookups answered without a query of their own (a kept answer, or one joined while in flight). */
  hits: number;
  /** Lookups that sent a query. */
  misses: number;
  entries: number;
}

export interface DnsCacheOptions {
  /** Answers kept at most; the least recently used goes first. Default 10,000. */
  maxEntries?: number;
  /** Milliseconds, as Date.now. */
  now?: () => number;
}

export type CachingDnsResolver = DnsResolver & { stats(): DnsCacheStats };

type RrType = 'MX' | 'A' | 'AAAA';

type Entry =
  | { state: 'pending'; answer: Promise<unknown[]> }
  | { state: 'answer'; records: unknown[]; expiresAt: number }
  | { state: 'absent'; error: DnsLookupError; expiresAt: number };

/** Seconds of TTL to ms: the shortest of the answers, within [1 s, 1 h]. */
function addressTtlMs(records: AddressWithTtl[]): number {
  if (records.length === 0) return NEGATIVE_TTL_MS;
  const shortest = Math.min(...records.map((record) => record.ttl)) * 1000;
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, shortest));
}

export function createCachingDnsResolver(inner: DnsResolver, options: DnsCacheOptions = {}): CachingDnsResolver {
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Entry>();
  let hits = 0;
  let misses = 0;

  function store(key: string, entry: Entry): void {
    cache.delete(key);
    cache.set(key, entry);
    // A Map iterates in insertion order, and a hit re-inserts, so the first key is the least recent.
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
  }

  async function cached<T>(
    rrtype: RrType,
    name: string,
    fetch: () => Promise<{ records: T[]; ttlMs: number }>,
  ): Promise<T[]> {
    const key = `${rrtype} ${name.toLowerCase().replace(/\.$/, '')}`;
    const entry = cache.get(key);
    if (entry !== undefined && (entry.state === 'pending' || entry.expiresAt > now())) {
      hits++;
      store(key, entry);
      if (entry.state === 'pending') return [...((await entry.answer) as T[])];
      // A fresh error each time, so no caller's stack or handling leaks into another's.
      if (entry.state === 'absent') throw new DnsLookupError('NOT_FOUND', entry.error.code, name, rrtype);
      return [...(entry.records as T[])];
    }
    misses++;
    const answer = fetch().then(
      ({ records, ttlMs }) => {
        // Only if still ours: the entry may have been evicted (or replaced) while the query ran.
        if (cache.get(key) === pending) store(key, { state: 'answer', records, expiresAt: now() + ttlMs });
        return records;
      },
      (error: unknown) => {
        if (cache.get(key) === pending) {
          if (error instanceof DnsLookupError && error.kind === 'NOT_FOUND') {
            store(key, { state: 'absent', error, expiresAt: now() + NEGATIVE_TTL_MS });
          } else {
            cache.delete(key);
          }
        }
        throw error;
      },
    );
    const pending: Entry = { state: 'pending', answer };
    store(key, pending);
    return [...(await answer)];
  }

  function addresses(rrtype: 'A' | 'AAAA', name: string): Promise<string[]> {
    const withTtl = rrtype === 'A' ? inner.resolve4WithTtl : inner.resolve6WithTtl;
    const plain = rrtype === 'A' ? inner.resolve4 : inner.resolve6;
    return cached(rrtype, name, async () => {
      if (withTtl === undefined) return { records: await plain.call(inner, name), ttlMs: UNKNOWN_TTL_MS };
      const records = await withTtl.call(inner, name);
      return { records: records.map((record) => record.address), ttlMs: addressTtlMs(records) };
    });
  }

  // Plain closures, not methods: callers pass dns.resolve4 around unbound (direct.ts).
  return {
    resolveTxt: (name) => inner.resolveTxt(name),
    resolveMx: (name) =>
      cached<MxRecord>('MX', name, async () => ({ records: await inner.resolveMx(name), ttlMs: MX_TTL_MS })),
    resolve4: (name) => addresses('A', name),
    resolve6: (name) => addresses('AAAA', name),
    stats: () => ({ hits, misses, entries: cache.size }),
  };
}

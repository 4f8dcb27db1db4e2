// DNS lookups behind a small interface, over node:dns/promises' Resolver (c-ares), pointed at
// HERALD_DNS_SERVERS when set. Failures are sorted into the two kinds callers act on: the record does
// not exist (NOT_FOUND: the name or the record type is absent), or the answer could not be had right
// now (TEMPORARY: timeout, SERVFAIL, refused, unreachable server), which must never be read as "absent".
import { Resolver } from 'node:dns/promises';

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** An address with its record's TTL in seconds, as node:dns's `{ ttl: true }` gives it. */
export interface AddressWithTtl {
  address: string;
  ttl: number;
}

export interface DnsResolver {
  /** One string per TXT record, its character-strings joined (a 2048-bit DKIM key spans several). */
  resolveTxt(name: string): Promise<string[]>;
  resolveMx(name: string): Promise<MxRecord[]>;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  /** A records with TTLs, for caches (dns-cache.ts). Optional: fakes and wrappers need not have it. */
  resolve4WithTtl?(name: string): Promise<AddressWithTtl[]>;
  /** AAAA records with TTLs, as resolve4WithTtl. */
  resolve6WithTtl?(name: string): Promise<AddressWithTtl[]>;
}

type DnsFailureKind = 'NOT_FOUND' | 'TEMPORARY';

export class DnsLookupError extends Error {
  override name = 'DnsLookupError';
  readonly kind: DnsFailureKind;
  /** The c-ares code, e.g. ENOTFOUND, ETIMEOUT, ESERVFAIL. */
  readonly code: string;
  readonly hostname: string;

  constructor(kind: DnsFailureKind, code: string, hostname: string, rrtype: string) {
    super(`${rrtype} lookup of ${hostname} ${kind === 'NOT_FOUND' ? 'found no record' : 'failed'} (${code})`);
    this.kind = kind;
    this.code = code;
    this.hostname = hostname;
  }
}

// NXDOMAIN comes back as ENOTFOUND, "name exists but has no record of that type" as ENODATA.
// Everything else (ETIMEOUT, ESERVFAIL, EREFUSED, ECONNREFUSED, EBADRESP, ...) is temporary.
const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'ENODATA']);

function classifyDnsError(error: unknown, hostname: string, rrtype: string): DnsLookupError {
  const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'EUNKNOWN';
  return new DnsLookupError(NOT_FOUND_CODES.has(code) ? 'NOT_FOUND' : 'TEMPORARY', code, hostname, rrtype);
}

interface DnsResolverOptions {
  /** `ip`, `ip:port` or `[ipv6]:port` entries (config.dnsServers); empty: the system's resolvers. */
  servers?: readonly string[];
  /** Per try, in ms; c-ares lengthens later tries. Default 2,000. */
  timeoutMs?: number;
  /** Attempts per server before giving up. Default 2. */
  tries?: number;
}

export function createDnsResolver(options: DnsResolverOptions = {}): DnsResolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
  if (options.servers !== undefined && options.servers.length > 0) resolver.setServers([...options.servers]);

  async function lookup<T>(rrtype: string, hostname: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw classifyDnsError(error, hostname, rrtype);
    }
  }

  return {
    resolveTxt: (name) =>
      lookup('TXT', name, async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))),
    resolveMx: (name) => lookup('MX', name, () => resolver.resolveMx(name)),
    resolve4: (name) => lookup('A', name, () => resolver.resolve4(name)),
    resolve6: (name) => lookup('AAAA', name, () => resolver.resolve6(name)),
    resolve4WithTtl: (name) => lookup('A', name, () => resolver.resolve4(name, { ttl: true })),
    resolve6WithTtl: (name) => lookup('AAAA', name, () => resolver.resolve6(name, { ttl: true })),
  };
}

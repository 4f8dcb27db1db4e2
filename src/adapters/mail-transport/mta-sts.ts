// MTA-STS (RFC 8461) policy lookup for the direct transport. Discovery (the `_mta-sts` TXT id) and the
// policy file parser come from mailauth; the HTTPS fetch is ours, because mailauth's hard-codes port 443,
// the system CAs and node's own DNS, while Herald resolves every name through its DNS adapter
// (HERALD_DNS_SERVERS) and an operator may add CAs. Policies are trust-on-first-use: once fetched, a
// policy holds for its max_age even when DNS or HTTPS later fail or are tampered with (RFC 8461 5.1).
import https from 'node:https';
import tls from 'node:tls';
import { domainToASCII } from 'node:url';
import { parsePolicy, resolvePolicy } from 'mailauth/lib/mta-sts.js';
import type { DnsResolver } from '../dns.ts';

export type MtaStsPolicy =
  | { mode: 'none'; error?: string }
  | { mode: 'enforce' | 'testing'; mx: string[]; maxAgeSeconds: number; id: string; error?: string };

export interface MtaStsOptions {
  dns: DnsResolver;
  /** Extra PEM CAs, trusted in addition to Node's root store (HERALD_DIRECT_CA_FILE). */
  ca?: string | Buffer;
  /** Port of the policy host's HTTPS server. Default 443 (tests: a loopback port). */
  httpsPort?: number;
  /** Whole-request deadline of a policy fetch. Default 15 s. */
  timeoutMs?: number;
  /** Domains remembered at most; the least recently stored is dropped first. Default 10,000. */
  maxEntries?: number;
  now?: () => number;
}

export interface MtaStsStats {
  entries: number;
  txtLookups: number;
  policyFetches: number;
  fetchFailures: number;
}

export interface MtaStsPolicies {
  /** The policy to apply to mail for `domain`; never rejects (failures come back as `error`). */
  policyFor(domain: string): Promise<MtaStsPolicy>;
  stats(): MtaStsStats;
}

/** A fetched policy file (any mode, 'none' included: it replaces an older enforce policy). */
interface StoredPolicy {
  id: string;
  mode: 'enforce' | 'testing' | 'none';
  mx: string[];
  maxAgeSeconds: number;
  expiresAt: number;
}

interface DomainState {
  policy?: StoredPolicy;
  /** The last TXT answer: the policy id, or null when there was none (or the lookup failed). */
  txt?: { id: string | null; error?: string; until: number };
  /** A failed fetch of this id; not retried before `until`. */
  failure?: { id: string; error: string; until: number };
}

/** How long a TXT answer is reused before asking DNS again. */
const TXT_CACHE_MS = 5 * 60_000;
/** RFC 8461 3.3 suggests waiting five minutes or more per policy id after a failed fetch. */
const FETCH_RETRY_MS = 5 * 60_000;
/** RFC 8461 3.3: senders may cap the policy body at 64 KB. */
const MAX_POLICY_BYTES = 64 * 1024;

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // mailauth's errors can carry only a code (e.g. multi_sts_records).
  return error.message || String((error as { code?: unknown }).code ?? error.name);
}

function normaliseHost(name: string): string {
  const trimmed = name.trim().toLowerCase().replace(/\.$/, '');
  return domainToASCII(trimmed) || trimmed;
}

/**
 * Whether delivering to `mxHost` satisfies `policy` (RFC 8461 4.1): an exact name, or `*.` standing for
 * exactly one leftmost label. Mode none allows any host. (mailauth's validateMx lets `*.` span labels.)
 */
export function mxMatches(policy: MtaStsPolicy, mxHost: string): boolean {
  if (policy.mode === 'none') return true;
  const host = normaliseHost(mxHost);
  return policy.mx.some((entry) => {
    const pattern = normaliseHost(entry);
    if (!pattern.startsWith('*.')) return host === pattern;
    const dot = host.indexOf('.');
    return dot > 0 && host.slice(dot + 1) === pattern.slice(2);
  });
}

export function createMtaStsPolicies(options: MtaStsOptions): MtaStsPolicies {
  const { dns } = options;
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const httpsPort = options.httpsPort ?? 443;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const ca = options.ca === undefined ? undefined : [...tls.rootCertificates, options.ca];
  const states = new Map<string, DomainState>();
  const inFlight = new Map<string, Promise<MtaStsPolicy>>();
  const counters = { txtLookups: 0, policyFetches: 0, fetchFailures: 0 };

  // mailauth's discovery wants node:dns's shape: TXT records as arrays of strings, errors with a code
  // (DnsLookupError carries ENOTFOUND/ENODATA for an absent record, which it reads as "no policy").
  const txtResolver = async (name: string) => (await dns.resolveTxt(name)).map((value) => [value]);

  function store(domain: string, state: DomainState): void {
    states.delete(domain); // re-insert so Map order is "least recently stored first"
    states.set(domain, state);
    for (const oldest of states.keys()) {
      if (states.size <= maxEntries) break;
      states.delete(oldest);
    }
  }

  // The policy host is resolved like every name Herald looks up: through the DNS adapter, A then AAAA.
  async function addressOf(host: string): Promise<string> {
    let reason = 'no A or AAAA record';
    for (const resolve of [() => dns.resolve4(host), () => dns.resolve6(host)]) {
      try {
        const addresses = await resolve();
        if (addresses[0] !== undefined) return addresses[0];
      } catch (error) {
        reason = describe(error);
      }
    }
    throw new Error(`${host} has no address (${reason})`);
  }

  async function fetchPolicyFile(domain: string): Promise<string> {
    const host = `mta-sts.${domain}`;
    const address = await addressOf(host);
    return new Promise<string>((resolve, reject) => {
      const request = https.request(
        {
          host: address,
          port: httpsPort,
          path: '/.well-known/mta-sts.txt',
          headers: { host },
          servername: host,
          ca,
          rejectUnauthorized: true,
          agent: false,
          signal: AbortSignal.timeout(timeoutMs),
        },
        (response) => {
          // RFC 8461 3.3: redirects are not followed, and the policy is text/plain (any charset).
          const mediaType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
          const problem =
            response.statusCode !== 200
              ? `HTTP ${response.statusCode}`
              : mediaType !== 'text/plain'
                ? `media type ${mediaType || '(none)'}`
                : null;
          if (problem !== null) {
            response.destroy();
            reject(new Error(`https://${host}/.well-known/mta-sts.txt answered ${problem}`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_POLICY_BYTES) {
              request.destroy(new Error(`the policy is larger than ${MAX_POLICY_BYTES} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          response.on('error', reject);
        },
      );
      request.on('error', (error) =>
        reject(error.name === 'AbortError' ? new Error(`no answer within ${timeoutMs} ms`) : error),
      );
      request.end();
    });
  }

  async function fetchPolicy(domain: string, id: string): Promise<StoredPolicy> {
    counters.policyFetches++;
    const parsed = parsePolicy(await fetchPolicyFile(domain));
    const maxAgeSeconds = parsed.maxAge ?? 0;
    return { id, mode: parsed.mode, mx: parsed.mx ?? [], maxAgeSeconds, expiresAt: now() + maxAgeSeconds * 1000 };
  }

  async function lookup(domain: string): Promise<MtaStsPolicy> {
    const state: DomainState = { ...states.get(domain) };
    const at = now();
    if (state.policy && state.policy.expiresAt <= at) delete state.policy;
    const cached = state.policy;

    if (!state.txt || state.txt.until <= at) {
      counters.txtLookups++;
      try {
        const id = await resolvePolicy(domain, { resolver: txtResolver });
        state.txt = { id: id === false ? null : id, until: at + TXT_CACHE_MS };
      } catch (error) {
        // DNS trouble or several STSv1 records: no live policy for now (RFC 8461 3.1).
        state.txt = { id: null, error: `MTA-STS TXT of ${domain}: ${describe(error)}`, until: at + TXT_CACHE_MS };
      }
    }
    const { id, error: txtError } = state.txt;

    let error = txtError;
    // Unchanged id and an unexpired policy: no fetch (RFC 8461 5.1). No id: the cached policy still holds.
    if (id !== null && id !== cached?.id) {
      if (state.failure && state.failure.id === id && state.failure.until > at) {
        error = state.failure.error;
      } else {
        try {
          state.policy = await fetchPolicy(domain, id);
          delete state.failure;
        } catch (fetchError) {
          counters.fetchFailures++;
          error = `MTA-STS policy of ${domain}: ${describe(fetchError)}`;
          state.failure = { id, error, until: at + FETCH_RETRY_MS };
        }
      }
    }
    store(domain, state);
    return view(state.policy, error);
  }

  function view(policy: StoredPolicy | undefined, error: string | undefined): MtaStsPolicy {
    const withError = error === undefined ? {} : { error };
    if (policy === undefined || policy.mode === 'none') return { mode: 'none', ...withError };
    const { mode, mx, maxAgeSeconds, id } = policy;
    return { mode, mx: [...mx], maxAgeSeconds, id, ...withError };
  }

  return {
    policyFor(domain) {
      const key = normaliseHost(domain);
      // Concurrent deliveries to one domain share a lookup.
      let pending = inFlight.get(key);
      if (pending === undefined) {
        pending = lookup(key).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    stats: () => ({ entries: states.size, ...counters }),
  };
}

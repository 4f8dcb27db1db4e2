// The undici Agent webhook deliveries go through. Its connector resolves the host name itself,
// checks every address (url-safety.ts) and opens the TCP connection to one of exactly those
// addresses, with the name kept for SNI and certificate checks: a name cannot pass the check with a
// public address and then be connected to a private one (DNS rebinding). Pooled keep-alive
// connections stay on the address they were checked with; `checkHost` re-checks the name before
// every delivery so a name that has turned private is refused even when a pooled connection exists.
// http:// URLs (only for hosts wholly inside HERALD_WEBHOOK_ALLOW_CIDRS) go through the same connector,
// checked with their scheme. The Agent (and the undici package) is made at the first delivery.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { Agent, buildConnector } from 'undici';
import type { DnsResolver } from '../adapters/dns.ts';
import { parseAllowCidrs, resolveCheckedAddresses, type HostCheckOptions, type WebhookScheme } from './url-safety.ts';

export interface WebhookAgentOptions {
  dns: DnsResolver;
  /** config.webhookAllowCidrs: ranges exempt from the public-address rule (development, tests). */
  allowCidrs: readonly string[];
  /** config.webhookCaFile: a PEM bundle trusted in addition to Node's default roots. */
  caFile: string | null;
  /** TCP + TLS handshake, per address tried. Default 5,000. */
  connectTimeoutMs?: number;
  /** Connections per origin (undici's default: unlimited). */
  connections?: number;
}

export interface WebhookAgent {
  /** The Agent to pass as `dispatcher` to undici.request. Never follows redirects (no redirect interceptor). */
  dispatcher(): Promise<Agent>;
  /**
   * Resolves and checks `hostname` afresh (contract: the address is checked again before every
   * delivery); throws UnsafeWebhookHostError. The dispatcher shares one check among the calls it
   * claimed together (one batch), never across batches. `scheme` is the URL's (default https:).
   */
  checkHost(hostname: string, scheme?: WebhookScheme): Promise<void>;
  close(): Promise<void>;
}

// Errors that say "this address cannot be reached from here" (typically no IPv6 route), after
// which the next checked address is worth a try. A timeout is not one: it already cost the budget.
const TRY_NEXT_ADDRESS = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

export function createWebhookAgent(options: WebhookAgentOptions): WebhookAgent {
  const hostCheck: HostCheckOptions = { dns: options.dns, allowCidrs: parseAllowCidrs(options.allowCidrs) };
  // `ca` replaces Node's roots, so the operator's bundle is added to them rather than given alone.
  const ca = options.caFile === null ? undefined : [...tls.rootCertificates, readFileSync(options.caFile, 'utf8')];
  let made: Promise<Agent> | undefined;
  return {
    dispatcher: () => (made ??= makeAgent(options, hostCheck, ca)),
    checkHost: async (hostname, scheme) => {
      await resolveCheckedAddresses(hostname, hostCheck, scheme);
    },
    close: async () => {
      if (made !== undefined) await (await made).close();
    },
  };
}

async function makeAgent(
  options: WebhookAgentOptions,
  hostCheck: HostCheckOptions,
  ca: string[] | undefined,
): Promise<Agent> {
  const { Agent, buildConnector } = await import('undici');
  // undici's own connector does TLS, session reuse, TCP keep-alive and the connect timeout; we only
  // choose the address it connects to.
  // One secure context for every connection: building one from the whole root store is expensive.
  const secureContext = ca === undefined ? undefined : tls.createSecureContext({ ca });
  const connectTo = buildConnector({
    ...(secureContext === undefined ? {} : { secureContext }),
    timeout: options.connectTimeoutMs ?? 5_000,
  });

  // New connections to one name share a lookup while it runs (a burst of deliveries opens many at
  // once); nothing is kept after it answered. A failed lookup is not shared with later connections.
  const connecting = new Map<string, Promise<string[]>>();
  function connectAddresses(hostname: string, scheme: WebhookScheme): Promise<string[]> {
    const key = `${scheme}//${hostname.toLowerCase()}`;
    const running = connecting.get(key);
    if (running !== undefined) return running;
    const lookup = resolveCheckedAddresses(hostname, hostCheck, scheme);
    connecting.set(key, lookup);
    const forget = () => {
      if (connecting.get(key) === lookup) connecting.delete(key);
    };
    lookup.then(forget, forget);
    return lookup;
  }

  const connect: buildConnector.connector = (connectOptions, callback) => {
    const hostname = connectOptions.hostname;
    // Anything but https (undici only speaks http and https) is checked as http: local hosts only.
    const scheme: WebhookScheme = connectOptions.protocol === 'https:' ? 'https:' : 'http:';
    const bare = hostname.replace(/^\[(.*)\]$/, '$1');
    // The certificate must match the name we checked, whatever Host header a request carries; an IP
    // literal (allowed ranges only) sends no SNI and is checked against the address itself.
    const servername = net.isIP(bare) === 0 ? bare.replace(/\.$/, '') : undefined;
    const attempt = (addresses: string[], index: number) => {
      connectTo({ ...connectOptions, hostname: addresses[index]!, servername }, (...result) => {
        const [error] = result;
        const code = (error as { code?: unknown } | null)?.code;
        if (error !== null && index + 1 < addresses.length && typeof code === 'string' && TRY_NEXT_ADDRESS.has(code)) {
          attempt(addresses, index + 1);
        } else {
          callback(...result);
        }
      });
    };
    connectAddresses(hostname, scheme).then(
      (addresses) => attempt(addresses, 0),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  };

  return new Agent({
    connect,
    ...(options.connections === undefined ? {} : { connections: options.connections }),
  });
}

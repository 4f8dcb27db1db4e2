// HERALD_MAIL_TRANSPORT=direct: Herald is the MTA. Recipients are grouped by domain; each domain's
// MX hosts (through the DNS adapter, so HERALD_DNS_SERVERS applies) make its destination, whose
// pooled sessions (destination.ts) carry many messages each. Hosts are tried in priority order on
// HERALD_MX_PORT, falling back to the domain's own address when it has no MX. STARTTLS is
// opportunistic: used when offered, certificates not required (RFC 7435), and a host whose handshake
// failed is tried again in plaintext; unless the domain publishes an MTA-STS policy (RFC 8461): in
// enforce mode only the MX hosts it names, over TLS with a certificate valid for the MX name, and
// nothing in plaintext; in testing mode as usual, with what would have failed counted.
import type { CachingDnsResolver, DnsCacheStats } from '../dns-cache.ts';
import type { DnsResolver } from '../dns.ts';
import { memoryDestinationLedger } from './destination-backoff.ts';
import { Destination, type DestinationContext, type DestinationTls } from './destination.ts';
import { describe, domainOf, mailHostsOf } from './mail-hosts.ts';
import {
  createMtaStsPolicies,
  mxMatches,
  type MtaStsPolicies,
  type MtaStsPolicy,
  type MtaStsStats,
} from './mta-sts.ts';
import { outcomesForAll } from './outcomes.ts';
import { mxSessionOpener, type TlsOutcome } from './mx-sessions.ts';
import type {
  DeliveryResult,
  DestinationBackoff,
  DestinationLedger,
  Envelope,
  MailTransport,
  RecipientOutcome,
} from './types.ts';

export interface DirectTransportOptions {
  dns: DnsResolver;
  /** HERALD_MX_PORT. */
  mxPort: number;
  /** EHLO name: HERALD_MAIL_DOMAIN. */
  heloName: string;
  /** Per connection step (connect, greeting, idle socket). Default 30 s. */
  timeoutMs?: number;
  /** Hosts tried per domain before giving up for now. Default 5. */
  maxHosts?: number;
  /** HERALD_DIRECT_MAX_CONNECTIONS: per destination, across the deployment. Default 5. */
  maxConnections?: number;
  /** Sessions this process may have open over all destinations. Default 100. */
  maxConnectionsTotal?: number;
  /** HERALD_DIRECT_IPV6. Default true. */
  ipv6?: boolean;
  /** HERALD_DIRECT_BIND_ADDRESS. */
  bindAddress?: string | null;
  /** Slots and back-off shared by the deployment's workers; default: this process alone. */
  ledger?: DestinationLedger;
  /** How long an idle session waits for the next message before QUIT. Default 5 s. */
  idleMs?: number;
  /** HERALD_DIRECT_CA_FILE's certificates: trusted beside the system's where MTA-STS requires valid ones. */
  ca?: string | null;
  /** HERALD_MTA_STS_PORT: where policies are fetched (443). */
  mtaStsPort?: number;
  now?: () => Date;
  /** Told when an MTA-STS policy in testing mode would have refused what was done (the domain, or the destination of the session). */
  onMtaStsReport?: (domain: string, problem: string) => void;
  onTrouble?: (destination: string, backoff: DestinationBackoff) => void;
}

/** What /metrics shows of each destination this process has sent to. */
export interface DestinationStats {
  destination: string;
  open: number;
  idle: number;
  sessions: number;
  messages: number;
  deferrals: number;
  postponed: number;
  backedOff: boolean;
}

export interface DirectTransport extends MailTransport {
  readonly kind: 'direct';
  destinations(): DestinationStats[];
  tlsOutcomes(): Record<TlsOutcome, number>;
  /** The MX/A/AAAA cache (null when the resolver given keeps none) and the MTA-STS policies kept. */
  lookupStats(): { dns: DnsCacheStats | null; mtaSts: MtaStsStats };
}

/** Destinations remembered before idle ones are forgotten. */
const MAX_DESTINATIONS = 10_000;

export function createDirectTransport(options: DirectTransportOptions): DirectTransport {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxHosts = options.maxHosts ?? 5;
  const now = options.now ?? (() => new Date());
  const ledger = options.ledger ?? memoryDestinationLedger(now);
  const mtaSts: MtaStsPolicies = createMtaStsPolicies({
    dns: options.dns,
    ...(options.ca ? { ca: options.ca } : {}),
    ...(options.mtaStsPort === undefined ? {} : { httpsPort: options.mtaStsPort }),
    now: () => now().getTime(),
  });
  const sessions = mxSessionOpener({
    dns: options.dns,
    mxPort: options.mxPort,
    heloName: options.heloName,
    timeoutMs,
    ipv6: options.ipv6 ?? true,
    bindAddress: options.bindAddress ?? null,
    ca: options.ca ?? null,
    ...(options.onMtaStsReport ? { onMtaStsReport: options.onMtaStsReport } : {}),
  });

  const context: DestinationContext = {
    ledger,
    maxConnections: options.maxConnections ?? 5,
    budget: { max: options.maxConnectionsTotal ?? 100, used: 0 },
    idleMs: options.idleMs ?? 5_000,
    waitMs: 2 * timeoutMs,
    now,
    open: sessions.open,
    ...(options.onTrouble ? { onTrouble: options.onTrouble } : {}),
  };
  const destinations = new Map<string, Destination>();

  /** Sessions that must check certificates are kept apart from opportunistic ones to the same hosts. */
  function destinationOf(hosts: string[], tls: DestinationTls): Destination {
    const key = tls === 'opportunistic' ? hosts.join(',') : `${hosts.join(',')} (MTA-STS ${tls})`;
    let destination = destinations.get(key);
    if (destination === undefined) {
      forgetIdleDestinations();
      destination = new Destination(key, hosts, tls, context);
      destinations.set(key, destination);
    }
    return destination;
  }

  /** Bounded: past MAX_DESTINATIONS, destinations with no session and no back-off are forgotten. */
  function forgetIdleDestinations(): void {
    if (destinations.size < MAX_DESTINATIONS) return;
    for (const [key, destination] of destinations) {
      if (destination.pool.size === 0 && destination.backoff === null) destinations.delete(key);
    }
  }

  /** The hosts a domain's policy allows, and the TLS they need; `report`: say what testing mode would refuse. */
  function underPolicy(
    domain: string,
    hosts: string[],
    policy: MtaStsPolicy,
    report: boolean,
  ): { hosts: string[]; tls: DestinationTls } {
    if (policy.mode === 'none') return { hosts, tls: 'opportunistic' };
    const allowed = hosts.filter((host) => mxMatches(policy, host));
    if (policy.mode === 'enforce') return { hosts: allowed, tls: 'enforce' };
    if (report && allowed.length < hosts.length) {
      const outside = hosts.filter((h) => !allowed.includes(h));
      options.onMtaStsReport?.(domain, `MX hosts outside the policy: ${outside.join(', ')}`);
    }
    return { hosts, tls: 'report' };
  }

  /** Where a domain's mail goes: its destination, or the outcome every recipient gets without one. */
  async function route(
    domain: string,
    to: string[],
    report: boolean,
  ): Promise<{ destination: Destination } | { outcomes: RecipientOutcome[] }> {
    const mailHosts = await mailHostsOf(options.dns, domain);
    if (mailHosts.kind === 'none') return { outcomes: outcomesForAll(to, mailHosts.status, mailHosts.reason) };
    const { hosts, tls } = underPolicy(domain, mailHosts.hosts, await mtaSts.policyFor(domain), report);
    if (hosts.length === 0) {
      if (report) sessions.refusedByPolicy();
      const reason = `the MTA-STS policy of ${domain} allows none of its MX hosts (${mailHosts.hosts.join(', ')})`;
      return { outcomes: outcomesForAll(to, 'temporary', reason) };
    }
    return { destination: destinationOf(hosts.slice(0, maxHosts), tls) };
  }

  async function deliverToDomain(domain: string, envelope: Envelope, raw: Buffer): Promise<RecipientOutcome[]> {
    const routed = await route(domain, envelope.to, true);
    if ('outcomes' in routed) return routed.outcomes;
    try {
      return await routed.destination.deliver(envelope, raw);
    } catch (error) {
      // The ledger (the database) could not be asked: an ordinary retry.
      return outcomesForAll(envelope.to, 'temporary', describe(error));
    }
  }

  function byDomain(recipients: string[]): Map<string, string[]> {
    const grouped = new Map<string, string[]>();
    for (const recipient of recipients) {
      const domain = domainOf(recipient);
      grouped.set(domain, [...(grouped.get(domain) ?? []), recipient]);
    }
    return grouped;
  }

  return {
    kind: 'direct',
    async send(envelope: Envelope, raw: Buffer): Promise<DeliveryResult> {
      const settled = await Promise.all(
        [...byDomain(envelope.to)].map(([domain, to]) => deliverToDomain(domain, { from: envelope.from, to }, raw)),
      );
      const outcomes = new Map(settled.flat().map((outcome) => [outcome.recipient, outcome]));
      return { recipients: envelope.to.map((recipient) => outcomes.get(recipient)!) };
    },
    async handBack(to: string[]) {
      const handedBack: RecipientOutcome[] = [];
      for (const [domain, recipients] of byDomain(to)) {
        const routed = await route(domain, recipients, false);
        const outcomes = 'destination' in routed ? routed.destination.handBack(recipients) : null;
        if (outcomes === null) return null;
        handedBack.push(...outcomes);
      }
      return handedBack;
    },
    destinations() {
      return [...destinations.values()].map((d) => ({
        destination: d.key,
        open: d.pool.size,
        idle: d.pool.idleCount,
        sessions: d.pool.opened,
        messages: d.counts.messages,
        deferrals: d.counts.deferrals,
        postponed: d.counts.postponed,
        backedOff: d.backoff !== null,
      }));
    },
    tlsOutcomes: sessions.tlsOutcomes,
    lookupStats() {
      const dns = options.dns as Partial<CachingDnsResolver>;
      return { dns: dns.stats?.() ?? null, mtaSts: mtaSts.stats() };
    },
    async close() {
      for (const destination of destinations.values()) destination.close();
      await ledger.close();
    },
  };
}

// HERALD_MAIL_TRANSPORT=direct: Herald is the MTA. Recipients are grouped by domain; each domain's
// MX hosts (through the DNS adapter, so HERALD_DNS_SERVERS applies) make its destination, whose
// pooled sessions (destination.ts) carry many messages each. Hosts are tried in priority order on
// HERALD_MX_PORT, falling back to the domain's own address when it has no MX. STARTTLS is
// opportunistic: used when offered, certificates not required (RFC 7435), and a host whose handshake
// failed is tried again in plaintext; unless the domain publishes an MTA-STS policy (RFC 8461): in
// enforce mode only the MX hosts it names, over TLS with a certificate valid for the MX name, and
// nothing in plaintext; in testing mode as usual, with what would have failed counted.
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { DnsResolver } from '../dns.ts';
import { memoryDestinationLedger } from './destination-backoff.ts';
import { Destination, type DestinationContext, type DestinationTls } from './destination.ts';
import { addressesOf, describe, domainOf, mailHostsOf, NoMailHost } from './mail-hosts.ts';
import { createMtaStsPolicies, mxMatches, type MtaStsPolicies, type MtaStsPolicy } from './mta-sts.ts';
import { outcomesForAll } from './outcomes.ts';
import { SmtpSession, type SessionTls } from './smtp-session.ts';
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

/** Sessions by the TLS they came to; failed: a STARTTLS that failed; mta_sts_refused: a session or host an enforced policy did not allow. */
export type TlsOutcome = SessionTls | 'failed' | 'mta_sts_refused';

export interface DirectTransport extends MailTransport {
  readonly kind: 'direct';
  destinations(): DestinationStats[];
  tlsOutcomes(): Record<TlsOutcome, number>;
}

/** Destinations remembered before idle ones are forgotten. */
const MAX_DESTINATIONS = 10_000;

/** The failure of a host, named so that outcomes can say which host it was. */
function withHost(error: unknown, host: string): unknown {
  return typeof error === 'object' && error !== null ? Object.assign(error, { host }) : error;
}

export function createDirectTransport(options: DirectTransportOptions): DirectTransport {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxHosts = options.maxHosts ?? 5;
  const ipv6 = options.ipv6 ?? true;
  const now = options.now ?? (() => new Date());
  const ledger = options.ledger ?? memoryDestinationLedger(now);
  /** Hosts whose STARTTLS failed: plaintext from then on (RFC 7435 allows it). */
  const plaintextHosts = new Set<string>();
  const tlsOutcomes: Record<TlsOutcome, number> = {
    verified: 0,
    unverified: 0,
    plaintext: 0,
    failed: 0,
    mta_sts_refused: 0,
  };
  const mtaSts: MtaStsPolicies = createMtaStsPolicies({
    dns: options.dns,
    ...(options.ca ? { ca: options.ca } : {}),
    ...(options.mtaStsPort === undefined ? {} : { httpsPort: options.mtaStsPort }),
    now: () => now().getTime(),
  });
  // The system's authorities and the operator's: what an enforced MTA-STS policy's certificates must chain to.
  const enforcedCa = options.ca ? [...rootCertificates, options.ca] : undefined;

  async function openOn(host: string, address: string, tls: DestinationTls): Promise<SmtpSession> {
    const base = {
      address,
      port: options.mxPort,
      heloName: options.heloName,
      timeoutMs,
      ...(isIP(host) === 0 ? { servername: host } : {}),
      ...(options.bindAddress ? { localAddress: options.bindAddress } : {}),
    };
    if (tls === 'enforce') {
      try {
        const session = await SmtpSession.open({
          ...base,
          requireTLS: true,
          tls: { rejectUnauthorized: true, ...(enforcedCa ? { ca: enforcedCa } : {}) },
        });
        tlsOutcomes.verified += 1;
        return session;
      } catch (error) {
        tlsOutcomes.mta_sts_refused += 1;
        // RFC 8461 5: no valid TLS under an enforced policy defers the message, whatever the server answered.
        throw Object.assign(new Error(`MTA-STS policy requires valid TLS: ${describe(error)}`), { code: 'ETLS' });
      }
    }
    let session: SmtpSession;
    if (plaintextHosts.has(host)) session = await SmtpSession.open({ ...base, ignoreTLS: true });
    else {
      try {
        session = await SmtpSession.open({ ...base, ...(enforcedCa ? { tls: { ca: enforcedCa } } : {}) });
      } catch (error) {
        if ((error as { code?: string }).code !== 'ETLS') throw error;
        tlsOutcomes.failed += 1;
        plaintextHosts.add(host);
        session = await SmtpSession.open({ ...base, ignoreTLS: true });
      }
    }
    tlsOutcomes[session.tls] += 1;
    return session;
  }

  /** The first host (in priority order) that takes a session; the last failure otherwise. */
  async function open(hosts: string[], tls: DestinationTls): Promise<SmtpSession> {
    let lastError: unknown = null;
    let anyAddress = false;
    for (const host of hosts) {
      let addresses: string[];
      try {
        addresses = await addressesOf(options.dns, host, ipv6);
      } catch (error) {
        anyAddress = true; // the name may well exist; its lookup failed for now
        lastError = withHost(error, host);
        continue;
      }
      for (const address of addresses.slice(0, 2)) {
        anyAddress = true;
        try {
          const session = await openOn(host, address, tls);
          if (tls === 'report' && session.tls !== 'verified') {
            options.onMtaStsReport?.(
              hosts.join(','),
              `${host}: TLS ${session.tls}, an enforced policy would have refused it`,
            );
          }
          return session;
        } catch (error) {
          lastError = withHost(error, host);
          const { responseCode } = error as { responseCode?: number };
          // A 5xx greeting says the host refuses mail outright; another host may still take it.
          if (responseCode !== undefined && responseCode >= 500 && responseCode < 600) break;
        }
      }
    }
    // Neither MX hosts nor the implicit MX have an address: nothing can ever be delivered.
    if (!anyAddress) throw new NoMailHost(`no mail host with an address among ${hosts.join(', ')}`);
    throw lastError ?? new Error(`no mail host of ${hosts.join(', ')} could be reached`);
  }

  const context: DestinationContext = {
    ledger,
    maxConnections: options.maxConnections ?? 5,
    budget: { max: options.maxConnectionsTotal ?? 100, used: 0 },
    idleMs: options.idleMs ?? 5_000,
    waitMs: 2 * timeoutMs,
    now,
    open,
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
      if (report) tlsOutcomes.mta_sts_refused += 1;
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
    tlsOutcomes() {
      return { ...tlsOutcomes };
    },
    async close() {
      for (const destination of destinations.values()) destination.close();
      await ledger.close();
    },
  };
}

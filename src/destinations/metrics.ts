// Direct delivery on /metrics, read from the transport when scraped: per destination (a recipient
// domain's MX host set) the sessions open, sessions and messages so far, deferrals, messages handed
// back while it was backed off, and whether it is; and the TLS every session came to.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DestinationStats, DirectTransport, MailTransport } from '../adapters/mail-transport/index.ts';

const perDestination: {
  name: string;
  help: string;
  kind: 'gauge' | 'counter';
  value: (s: DestinationStats) => number;
}[] = [
  {
    name: 'herald_direct_connections_open',
    help: 'Sessions open to the destination',
    kind: 'gauge',
    value: (s) => s.open,
  },
  {
    name: 'herald_direct_sessions_total',
    help: 'Sessions opened to the destination',
    kind: 'counter',
    value: (s) => s.sessions,
  },
  {
    name: 'herald_direct_messages_total',
    help: 'Messages offered to the destination',
    kind: 'counter',
    value: (s) => s.messages,
  },
  {
    name: 'herald_direct_messages_per_connection',
    help: 'Messages per session to the destination, on average',
    kind: 'gauge',
    value: (s) => (s.sessions === 0 ? 0 : s.messages / s.sessions),
  },
  {
    name: 'herald_direct_deferrals_total',
    help: 'Temporary answers and troubles of the destination',
    kind: 'counter',
    value: (s) => s.deferrals,
  },
  {
    name: 'herald_direct_postponed_total',
    help: 'Recipients handed back untried while the destination was backed off or busy',
    kind: 'counter',
    value: (s) => s.postponed,
  },
  {
    name: 'herald_direct_backed_off',
    help: '1 while the destination is backed off',
    kind: 'gauge',
    value: (s) => (s.backedOff ? 1 : 0),
  },
];

function isDirect(transport: MailTransport): transport is DirectTransport {
  return transport.kind === 'direct' && 'destinations' in transport;
}

/** Once per registry, in the process that delivers (the worker); nothing for the other transports. */
export function registerDirectDeliveryMetrics(registry: Registry, transport: MailTransport): void {
  if (!isDirect(transport) || registry.getSingleMetric('herald_direct_tls_total') !== undefined) return;
  for (const metric of perDestination) {
    const options = {
      name: metric.name,
      help: metric.help,
      labelNames: ['destination'] as const,
      registers: [registry],
      collect(this: Gauge<'destination'> | Counter<'destination'>) {
        this.reset();
        for (const stats of transport.destinations()) {
          const value = metric.value(stats);
          if (this instanceof Gauge) this.set({ destination: stats.destination }, value);
          else this.inc({ destination: stats.destination }, value);
        }
      },
    };
    if (metric.kind === 'gauge') new Gauge(options);
    else new Counter(options);
  }
  registerLookupMetrics(registry, transport);
  new Counter({
    name: 'herald_direct_tls_total',
    help: 'Sessions by the TLS they came to (verified, unverified, plaintext; failed: a handshake that failed, retried in plaintext; mta_sts_refused: a host an MTA-STS policy in enforce mode did not allow or whose TLS failed)',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [result, count] of Object.entries(transport.tlsOutcomes())) this.inc({ result }, count);
    },
  });
}

/** The DNS answers and MTA-STS policies the transport keeps, and the lookups they saved or cost. */
function registerLookupMetrics(registry: Registry, transport: DirectTransport): void {
  new Counter({
    name: 'herald_direct_dns_lookups_total',
    help: 'MX, A and AAAA lookups of direct delivery: hit (answered from the cache, or joined a query in flight) or miss (a query sent)',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.reset();
      const dns = transport.lookupStats().dns;
      if (dns === null) return;
      this.inc({ result: 'hit' }, dns.hits);
      this.inc({ result: 'miss' }, dns.misses);
    },
  });
  new Gauge({
    name: 'herald_direct_dns_cache_entries',
    help: 'DNS answers kept by direct delivery',
    registers: [registry],
    collect() {
      this.set(transport.lookupStats().dns?.entries ?? 0);
    },
  });
  new Gauge({
    name: 'herald_direct_mta_sts_policies',
    help: 'MTA-STS policies kept (any mode)',
    registers: [registry],
    collect() {
      this.set(transport.lookupStats().mtaSts.entries);
    },
  });
  new Counter({
    name: 'herald_direct_mta_sts_lookups_total',
    help: 'MTA-STS work: txt (the _mta-sts record looked up), fetch (a policy file fetched), fetch_failed',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      const { txtLookups, policyFetches, fetchFailures } = transport.lookupStats().mtaSts;
      this.inc({ kind: 'txt' }, txtLookups);
      this.inc({ kind: 'fetch' }, policyFetches);
      this.inc({ kind: 'fetch_failed' }, fetchFailures);
    },
  });
}

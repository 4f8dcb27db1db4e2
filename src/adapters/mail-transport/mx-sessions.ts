// Opening a `direct` session to a destination: its hosts in priority order, each host's addresses
// (IPv4 first; IPv6 unless turned off), from HERALD_DIRECT_BIND_ADDRESS. Opportunistic STARTTLS
// (RFC 7435): a host whose handshake failed is tried in plaintext from then on. Under an enforced
// MTA-STS policy (RFC 8461): TLS required with a certificate valid for the MX name, never plaintext.
// Counts the TLS every session came to (`herald_direct_tls_total`).
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { DnsResolver } from '../dns.ts';
import type { DestinationTls } from './destination.ts';
import { addressesOf, describe, NoMailHost } from './mail-hosts.ts';
import { SmtpSession, type SessionTls } from './smtp-session.ts';

/** Sessions by the TLS they came to; failed: a STARTTLS that failed; mta_sts_refused: a session or host an enforced policy did not allow. */
export type TlsOutcome = SessionTls | 'failed' | 'mta_sts_refused';

export interface MxSessionOptions {
  dns: DnsResolver;
  mxPort: number;
  heloName: string;
  timeoutMs: number;
  ipv6: boolean;
  bindAddress: string | null;
  /** HERALD_DIRECT_CA_FILE's certificates, trusted beside the system's. */
  ca: string | null;
  onMtaStsReport?: (where: string, problem: string) => void;
}

/** The failure of a host, named so that outcomes can say which host it was. */
function withHost(error: unknown, host: string): unknown {
  return typeof error === 'object' && error !== null ? Object.assign(error, { host }) : error;
}

export function mxSessionOpener(options: MxSessionOptions) {
  /** Hosts whose STARTTLS failed: plaintext from then on (RFC 7435 allows it). */
  const plaintextHosts = new Set<string>();
  const tlsOutcomes: Record<TlsOutcome, number> = {
    verified: 0,
    unverified: 0,
    plaintext: 0,
    failed: 0,
    mta_sts_refused: 0,
  };
  // The system's authorities and the operator's: what an enforced MTA-STS policy's certificates must chain to.
  const enforcedCa = options.ca ? [...rootCertificates, options.ca] : undefined;

  async function openOn(host: string, address: string, tls: DestinationTls): Promise<SmtpSession> {
    const base = {
      address,
      port: options.mxPort,
      heloName: options.heloName,
      timeoutMs: options.timeoutMs,
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

  return {
    /** The first host (in priority order) that takes a session; the last failure otherwise. */
    async open(hosts: string[], tls: DestinationTls): Promise<SmtpSession> {
      let lastError: unknown = null;
      let anyAddress = false;
      for (const host of hosts) {
        let addresses: string[];
        try {
          addresses = await addressesOf(options.dns, host, options.ipv6);
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
    },
    /** A domain whose enforced policy allows none of its MX hosts. */
    refusedByPolicy(): void {
      tlsOutcomes.mta_sts_refused += 1;
    },
    tlsOutcomes(): Record<TlsOutcome, number> {
      return { ...tlsOutcomes };
    },
  };
}

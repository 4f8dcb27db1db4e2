// HERALD_MAIL_TRANSPORT=direct: Herald is the MTA. Recipients are grouped by domain; each domain's
// MX hosts (through the DNS adapter, so HERALD_DNS_SERVERS applies) are tried in priority order on
// HERALD_MX_PORT, falling back to the domain's own address when it has no MX (RFC 5321 5.1). A null
// MX (RFC 7505) or a domain with no address at all is permanent; DNS trouble and unreachable hosts
// are temporary. STARTTLS is opportunistic: used when offered, certificates not required (RFC 7435),
// and a failed handshake is retried in plaintext on the same host.
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import { DnsLookupError, type DnsResolver } from '../dns.ts';
import { outcomesForAll, outcomesFromError, outcomesFromInfo } from './outcomes.ts';
import type { DeliveryResult, Envelope, MailTransport, RecipientOutcome } from './types.ts';

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
}

type MailHosts =
  { kind: 'hosts'; hosts: string[] } | { kind: 'none'; status: 'temporary' | 'permanent'; reason: string };

function domainOf(address: string): string {
  return address
    .slice(address.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
}

function isNotFound(error: unknown): boolean {
  return error instanceof DnsLookupError && error.kind === 'NOT_FOUND';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function mailHostsOf(dns: DnsResolver, domain: string): Promise<MailHosts> {
  try {
    const records = await dns.resolveMx(domain);
    if (records.length > 0) {
      // RFC 7505: a single MX of "." says the domain accepts no mail.
      if (records.length === 1 && (records[0]!.exchange === '' || records[0]!.exchange === '.')) {
        return { kind: 'none', status: 'permanent', reason: `${domain} accepts no mail (null MX)` };
      }
      const sorted = [...records].sort((a, b) => a.priority - b.priority);
      return {
        kind: 'hosts',
        hosts: sorted.map((record) => record.exchange.replace(/\.$/, '')).filter((host) => host !== ''),
      };
    }
  } catch (error) {
    if (!isNotFound(error)) return { kind: 'none', status: 'temporary', reason: describe(error) };
  }
  // No MX: the domain itself is the mail host when it has an address.
  return { kind: 'hosts', hosts: [domain] };
}

/** A host's addresses, IPv4 first. NOT_FOUND for both families is reported as an empty list. */
async function addressesOf(dns: DnsResolver, host: string): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  const found: string[] = [];
  let temporary: unknown = null;
  for (const lookup of [dns.resolve4, dns.resolve6]) {
    try {
      found.push(...(await lookup(host)));
    } catch (error) {
      if (!isNotFound(error)) temporary = error;
    }
  }
  if (found.length === 0 && temporary !== null) throw temporary;
  return found;
}

/** An error that says this host could not take the message now, so the next host should be tried. */
function tryNextHost(error: unknown): boolean {
  const { responseCode, rejectedErrors } = error as { responseCode?: number; rejectedErrors?: unknown[] };
  if (rejectedErrors && rejectedErrors.length > 0) return false;
  return responseCode === undefined || (responseCode >= 400 && responseCode < 500);
}

export function createDirectTransport(options: DirectTransportOptions): MailTransport {
  const timeout = options.timeoutMs ?? 30_000;
  const maxHosts = options.maxHosts ?? 5;

  async function attempt(host: string, address: string, envelope: Envelope, raw: Buffer, ignoreTLS: boolean) {
    const transport = nodemailer.createTransport({
      host: address,
      port: options.mxPort,
      secure: false,
      ignoreTLS,
      opportunisticTLS: true,
      name: options.heloName,
      tls: { rejectUnauthorized: false, ...(isIP(host) === 0 ? { servername: host } : {}) },
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    try {
      return await transport.sendMail({ envelope: { from: envelope.from, to: envelope.to }, raw });
    } finally {
      transport.close();
    }
  }

  async function deliverToDomain(domain: string, envelope: Envelope, raw: Buffer): Promise<RecipientOutcome[]> {
    const recipients = envelope.to;
    const mailHosts = await mailHostsOf(options.dns, domain);
    if (mailHosts.kind === 'none') return outcomesForAll(recipients, mailHosts.status, mailHosts.reason);
    let lastFailure: RecipientOutcome[] | null = null;
    let anyAddress = false;
    for (const host of mailHosts.hosts.slice(0, maxHosts)) {
      let addresses: string[];
      try {
        addresses = await addressesOf(options.dns, host);
      } catch (error) {
        anyAddress = true; // the name may well exist; its lookup failed for now
        lastFailure = outcomesForAll(recipients, 'temporary', describe(error), host);
        continue;
      }
      for (const address of addresses.slice(0, 2)) {
        anyAddress = true;
        let ignoreTLS = false;
        for (;;) {
          try {
            const info = await attempt(host, address, envelope, raw, ignoreTLS);
            return outcomesFromInfo(recipients, info, host);
          } catch (error) {
            if ((error as { code?: string }).code === 'ETLS' && !ignoreTLS) {
              ignoreTLS = true;
              continue;
            }
            if (!tryNextHost(error)) return outcomesFromError(recipients, error, host);
            lastFailure = outcomesFromError(recipients, error, host).map((outcome) => ({
              ...outcome,
              status: 'temporary',
            }));
            break;
          }
        }
      }
    }
    if (!anyAddress) {
      // Neither MX hosts nor the implicit MX have an address: nothing can ever be delivered.
      return outcomesForAll(recipients, 'permanent', `no mail host with an address for ${domain}`);
    }
    return lastFailure ?? outcomesForAll(recipients, 'temporary', `no mail host of ${domain} could be reached`);
  }

  return {
    kind: 'direct',
    async send(envelope: Envelope, raw: Buffer): Promise<DeliveryResult> {
      const byDomain = new Map<string, string[]>();
      for (const recipient of envelope.to) {
        const domain = domainOf(recipient);
        byDomain.set(domain, [...(byDomain.get(domain) ?? []), recipient]);
      }
      const settled = await Promise.all(
        [...byDomain].map(([domain, to]) => deliverToDomain(domain, { from: envelope.from, to }, raw)),
      );
      const outcomes = new Map(settled.flat().map((outcome) => [outcome.recipient, outcome]));
      return { recipients: envelope.to.map((recipient) => outcomes.get(recipient)!) };
    },
    async close() {},
  };
}

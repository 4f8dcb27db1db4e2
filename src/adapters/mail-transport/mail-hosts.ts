// Where a recipient domain's mail goes (RFC 5321 5.1): its MX hosts by priority, or the domain
// itself when it has no MX. A null MX (RFC 7505) or a domain with no address at all is permanent;
// DNS trouble is temporary and must never be read as "no such domain".
import { isIP } from 'node:net';
import { DnsLookupError, type DnsResolver } from '../dns.ts';

export type MailHosts =
  { kind: 'hosts'; hosts: string[] } | { kind: 'none'; status: 'temporary' | 'permanent'; reason: string };

export function domainOf(address: string): string {
  return address
    .slice(address.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
}

function isNotFound(error: unknown): boolean {
  return error instanceof DnsLookupError && error.kind === 'NOT_FOUND';
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function mailHostsOf(dns: DnsResolver, domain: string): Promise<MailHosts> {
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
        hosts: sorted.map((record) => record.exchange.replace(/\.$/, '').toLowerCase()).filter((host) => host !== ''),
      };
    }
  } catch (error) {
    if (!isNotFound(error)) return { kind: 'none', status: 'temporary', reason: describe(error) };
  }
  // No MX: the domain itself is the mail host when it has an address.
  return { kind: 'hosts', hosts: [domain] };
}

/** A host's addresses, IPv4 first (IPv6 unless turned off). NOT_FOUND for every family is an empty list. */
export async function addressesOf(dns: DnsResolver, host: string, ipv6: boolean): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  const found: string[] = [];
  let temporary: unknown = null;
  const lookups = [(name: string) => dns.resolve4(name), (name: string) => dns.resolve6(name)];
  for (const lookup of ipv6 ? lookups : lookups.slice(0, 1)) {
    try {
      found.push(...(await lookup(host)));
    } catch (error) {
      if (!isNotFound(error)) temporary = error;
    }
  }
  if (found.length === 0 && temporary !== null) throw temporary;
  return found;
}

/** No host of a destination has an address: nothing can ever be delivered there. */
export class NoMailHost extends Error {
  override name = 'NoMailHost';
}

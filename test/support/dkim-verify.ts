// DKIM checked the way a receiving MTA checks it: mailauth's verifier, whose key lookups go over real
// DNS to the test's loopback DNS server (the same one HERALD_DNS_SERVERS names), so a signature
// passes only when the record the API told the team to publish matches the key that signed.
import { Resolver } from 'node:dns/promises';
import type { DKIMResult } from 'mailauth';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';

export interface DkimVerification {
  /** At least one signature, and every signature passes. */
  pass: boolean;
  /** One status per signature, in message order: 'pass', 'fail', 'neutral', 'temperror', ... */
  statuses: string[];
  results: DKIMResult[];
}

/** A mailauth resolver that asks `dnsServer` (`ip:port`, a HERALD_DNS_SERVERS entry) over UDP/TCP. */
export function dnsResolverFor(dnsServer: string): (name: string, rrtype: string) => Promise<string[][]> {
  const resolver = new Resolver({ timeout: 1_000, tries: 3 });
  resolver.setServers([dnsServer]);
  return async (name, rrtype) => {
    // DKIM only needs TXT; anything else is not published by the tests.
    if (rrtype !== 'TXT')
      throw Object.assign(new Error(`no ${rrtype} lookups in DKIM tests (${name})`), { code: 'ENOTFOUND' });
    return resolver.resolveTxt(name);
  };
}

/** Verifies every DKIM signature of `raw` with keys looked up at `dnsServer`. */
export async function verifyDkimWithDns(raw: Buffer, dnsServer: string): Promise<DkimVerification> {
  const { results } = await dkimVerify(raw, { resolver: dnsResolverFor(dnsServer) });
  const statuses = results.map((result) => result.status.result);
  return { pass: statuses.length > 0 && statuses.every((status) => status === 'pass'), statuses, results };
}

// The URL safety tests' loopback DNS server: public names, names for every kind of non-public
// address, mixed answers and failing names, all under safety.test; and the refusal reasons to match.
import { afterAll, beforeAll } from 'vitest';
import { createDnsResolver, type DnsResolver } from '../../src/adapters/dns.ts';
import { TestDnsServer } from '../support/dns-server.ts';

export const PUBLIC_V4 = '93.184.216.34';
export const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

// Names under safety.test resolving to non-public addresses; each gets a URL in the hostile table.
export const PRIVATE_A: Record<string, string> = {
  'ten.safety.test': '10.0.0.1',
  'one72.safety.test': '172.16.5.4',
  'one72-top.safety.test': '172.31.255.255',
  'one92.safety.test': '192.168.1.1',
  'loop.safety.test': '127.0.0.1',
  'loop-other.safety.test': '127.45.6.7',
  'metadata.safety.test': '169.254.169.254',
  'cgnat.safety.test': '100.64.0.1',
  'zero.safety.test': '0.0.0.0',
  'multicast.safety.test': '224.0.0.1',
  'class-e.safety.test': '240.0.0.1',
  'broadcast.safety.test': '255.255.255.255',
  'docs.safety.test': '192.0.2.1',
  'ietf.safety.test': '192.0.0.8',
  'bench.safety.test': '198.18.0.1',
};
export const PRIVATE_AAAA: Record<string, string> = {
  'loop6.safety.test': '::1',
  'ula6.safety.test': 'fd00::1',
  'mapped6.safety.test': '::ffff:10.0.0.1',
  'nat64.safety.test': '64:ff9b::7f00:1',
  'linklocal6.safety.test': 'fe80::1',
  'docs6.safety.test': '2001:db8::1',
  'sitelocal6.safety.test': 'fec0::1',
  'compat6.safety.test': '::7f00:1',
};

export const SCHEME = /must use https/;
export const USERINFO = /user name or password/;
export const IP_LITERAL = /must be a name, not an IP address/;
export const LOCALHOST = /must not be localhost/;
export const SINGLE_LABEL = /fully qualified/;
export const NON_PUBLIC = /resolves to a non-public address/;
export const NO_RESOLVE = /does not resolve/;

export interface SafetyDns {
  server: TestDnsServer;
  dns: DnsResolver;
  /** Answers `name`'s A query with `addresses` from now on. */
  a(name: string, ...addresses: string[]): void;
  aaaa(name: string, ...addresses: string[]): void;
}

/** The server with every safety.test name set and a resolver on it, started before the file's tests and closed after. */
export function safetyDns(): SafetyDns {
  const bed = {
    a(name: string, ...addresses: string[]) {
      bed.server.set(
        name,
        'A',
        addresses.map((address) => ({ type: 'A', address })),
      );
    },
    aaaa(name: string, ...addresses: string[]) {
      bed.server.set(
        name,
        'AAAA',
        addresses.map((address) => ({ type: 'AAAA', address })),
      );
    },
  } as SafetyDns;
  beforeAll(async () => {
    bed.server = await TestDnsServer.start();
    bed.dns = createDnsResolver({ servers: [bed.server.address], timeoutMs: 300, tries: 1 });
    const { a, aaaa } = bed;
    a('public.safety.test', PUBLIC_V4);
    aaaa('public.safety.test', PUBLIC_V6);
    aaaa('public6.safety.test', PUBLIC_V6);
    for (const [name, address] of Object.entries(PRIVATE_A)) a(name, address);
    for (const [name, address] of Object.entries(PRIVATE_AAAA)) aaaa(name, address);
    a('mixed-a.safety.test', PUBLIC_V4, '10.1.2.3');
    a('mixed-aaaa.safety.test', PUBLIC_V4);
    aaaa('mixed-aaaa.safety.test', 'fd12:3456::1');
    bed.server.setTxt('txt-only.safety.test', 'no address here');
    bed.server.behave('servfail.safety.test', 'servfail');
  });
  afterAll(() => bed.server.close());
  return bed;
}

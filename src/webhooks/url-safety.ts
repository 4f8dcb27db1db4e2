// Webhook URLs must not let a team make Herald call into its own network (SSRF): the URL must be
// https with a public host name, and every address that name resolves to must be public. The same
// host check runs at create/update (400 with the reason) and again before every delivery and on
// every new connection (http-agent.ts), so a name that later resolves to a private address is
// refused then too.
//
// HERALD_WEBHOOK_ALLOW_CIDRS (development, tests) exempts its ranges: a host whose every address is
// in them (a name, an IP literal, or localhost, loopback without DNS: RFC 6761) is the operator's
// own network, where http:// and those host forms are accepted (operator.md), checked the same way
// at every delivery. Everything else keeps the contract's rules (Webhooks, rule 1).
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { DnsLookupError, type DnsResolver } from '../adapters/dns.ts';

const MAX_WEBHOOK_URL_LENGTH = 2_048;

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type AddressRange = readonly [Address, number];
/** HERALD_WEBHOOK_ALLOW_CIDRS, parsed once. */
type AllowedRanges = readonly AddressRange[];

export interface HostCheckOptions {
  dns: DnsResolver;
  /** CIDR strings (config.webhookAllowCidrs) or their parsed form from parseAllowCidrs. */
  allowCidrs: readonly string[] | AllowedRanges;
}

type UnsafeHostKind =
  /** The name itself is refused: an IP literal, localhost, a single label (outside the allowed ranges). */
  | 'INVALID_HOST'
  /** NXDOMAIN / no A and no AAAA record. */
  | 'NOT_FOUND'
  /** DNS could not answer now (timeout, SERVFAIL): worth retrying, says nothing about safety. */
  | 'TEMPORARY'
  /** Some address of the name is not a public unicast address. */
  | 'NOT_PUBLIC'
  /** http:// to a host not wholly inside HERALD_WEBHOOK_ALLOW_CIDRS. */
  | 'NOT_HTTPS';

export class UnsafeWebhookHostError extends Error {
  override name = 'UnsafeWebhookHostError';
  readonly kind: UnsafeHostKind;
  readonly hostname: string;
  /** Short sentence about the URL for a 400 message, e.g. "url host does not resolve". */
  readonly reason: string;
  /** The refused address, for NOT_PUBLIC. */
  readonly address: string | null;

  constructor(kind: UnsafeHostKind, hostname: string, reason: string, message: string, address: string | null = null) {
    super(message);
    this.kind = kind;
    this.hostname = hostname;
    this.reason = reason;
    this.address = address;
  }
}

const parseRange = (cidr: string): AddressRange => ipaddr.parseCIDR(cidr);

// ipaddr.js already files all of these under a non-unicast range; the list is kept so that a change
// in its tables (or a range it never knew) cannot quietly make one of them deliverable.
const DENIED: AddressRange[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.31.196.0/24',
  '192.52.193.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '192.175.48.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/128',
  '::1/128',
  '::ffff:0:0/96',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  '3fff::/20',
  '5f00::/16',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
].map(parseRange);

// Only global unicast space is deliverable over IPv6; this also catches the deprecated
// IPv4-compatible ::a.b.c.d form, which ipaddr.js calls 'unicast'.
const GLOBAL_UNICAST_V6 = parseRange('2000::/3');

const RANGE_LABELS: Record<string, string> = {
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique-local',
  ipv4Mapped: 'IPv4-mapped',
  deprecatedSiteLocal: 'site-local',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  teredo: 'Teredo',
};

/** Throws on a malformed entry (config.ts has already validated the variable). */
export function parseAllowCidrs(list: readonly string[]): AllowedRanges {
  return list.map((cidr) => {
    try {
      return parseRange(cidr.trim());
    } catch {
      throw new Error(`HERALD_WEBHOOK_ALLOW_CIDRS: ${JSON.stringify(cidr)} is not a CIDR range`);
    }
  });
}

function toRanges(allow: readonly string[] | AllowedRanges): AllowedRanges {
  return allow.length === 0 || typeof allow[0] !== 'string'
    ? (allow as AllowedRanges)
    : parseAllowCidrs(allow as readonly string[]);
}

function inRange(address: Address, [base, bits]: AddressRange): boolean {
  return address.kind() === base.kind() && address.match(base, bits);
}

/** `ip` as an address, or null for what no address we may use looks like. */
function plainAddress(ip: string): Address | null {
  // A zone id never comes from DNS, and an unparsable answer is no address we may use.
  if (ip.includes('%') || net.isIP(ip) === 0) return null;
  // c-ares prints IPv4-compatible and mapped answers in dotted form (::127.0.0.1), which ipaddr.js
  // reads as mapped whatever the prefix; no global unicast address is written that way.
  if (ip.includes(':') && ip.includes('.')) return null;
  return ipaddr.parse(ip);
}

/** Why `ip` is refused (e.g. 'private', 'loopback'), or null when it is a deliverable address. */
function nonPublicRange(ip: string, allow: AllowedRanges = []): string | null {
  const address = plainAddress(ip);
  if (address === null) return ip.includes('%') || net.isIP(ip) === 0 ? 'invalid' : 'embedded IPv4';
  if (allow.some((range) => inRange(address, range))) return null;
  // Mapped and embedded IPv4 (::ffff:a.b.c.d, NAT64, 6to4, Teredo) are refused whatever they carry:
  // the range check below files them under their own non-unicast names.
  const range = address.range();
  if (range !== 'unicast') return RANGE_LABELS[range] ?? range;
  if (DENIED.some((denied) => inRange(address, denied))) return 'reserved';
  if (address.kind() === 'ipv6' && !inRange(address, GLOBAL_UNICAST_V6)) return 'not global unicast';
  return null;
}

export function isPublicAddress(ip: string, allow: readonly string[] | AllowedRanges = []): boolean {
  return nonPublicRange(ip, toRanges(allow)) === null;
}

/** The schemes a webhook URL may use: https, and http for a host wholly inside the allowed ranges. */
export type WebhookScheme = 'https:' | 'http:';

// RFC 6761: localhost names are loopback, answered without DNS (a resolver need not know them).
const LOOPBACK = ['127.0.0.1', '::1'];

// The refusals a developer meets on a local URL say which variable would accept it.
const ALLOW = 'HERALD_WEBHOOK_ALLOW_CIDRS';
const REASONS = {
  noHost: 'url must have a host',
  ipLiteral: `url host must be a name, not an IP address (an address in ${ALLOW} is allowed)`,
  localhost: `url host must not be localhost (allowed when ${ALLOW} covers 127.0.0.1 or ::1)`,
  singleLabel: 'url host must be a fully qualified domain name',
  https: `url must use https (http is allowed when ${ALLOW} covers every address of the host)`,
};

/** An address inside the operator's allowed ranges (only a plain, valid address can be). */
function isAllowed(ip: string, allow: AllowedRanges): boolean {
  const address = allow.length === 0 ? null : plainAddress(ip);
  return address !== null && allow.some((range) => inRange(address, range));
}

function refusedHost(hostname: string, reason: string, kind: UnsafeHostKind = 'INVALID_HOST'): UnsafeWebhookHostError {
  return new UnsafeWebhookHostError(kind, hostname, reason, `webhook host ${hostname} refused: ${reason}`);
}

/** The address an IP literal host stands for, in canonical form; null when it is not one. */
function literalAddress(bare: string): string | null {
  // The URL parser already turns 2130706433, 0x7f.1 and 017700000001 into 127.0.0.1; ipaddr.isValid
  // also catches those forms when a host name arrives unparsed (the connector's options).
  if (net.isIP(bare) === 0 && !ipaddr.isValid(bare)) return null;
  try {
    return ipaddr.parse(bare).toString();
  } catch {
    return bare;
  }
}

/** A and AAAA of `hostname`, IPv4 first; throws NOT_FOUND or TEMPORARY. Nothing is checked here. */
async function lookUp(hostname: string, dns: DnsResolver): Promise<string[]> {
  const name = hostname.replace(/\.$/, '');
  const answers = await Promise.allSettled([dns.resolve4(name), dns.resolve6(name)]);
  const addresses: string[] = [];
  for (const answer of answers) {
    if (answer.status === 'fulfilled') addresses.push(...answer.value);
    else if (!(answer.reason instanceof DnsLookupError) || answer.reason.kind !== 'NOT_FOUND') {
      // Unknown is not safe: one family failing means we cannot vouch for the whole answer.
      const code = answer.reason instanceof DnsLookupError ? answer.reason.code : String(answer.reason);
      throw new UnsafeWebhookHostError(
        'TEMPORARY',
        hostname,
        'url host could not be resolved right now; try again',
        `webhook host ${hostname} could not be resolved (${code})`,
      );
    }
  }
  if (addresses.length === 0) {
    throw new UnsafeWebhookHostError(
      'NOT_FOUND',
      hostname,
      'url host does not resolve',
      `webhook host ${hostname} does not resolve`,
    );
  }
  return addresses;
}

/**
 * Resolves the host of a webhook URL (URL.hostname form) and returns every address (IPv4 first),
 * all of them checked; throws UnsafeWebhookHostError otherwise. No caching: callers ask again at
 * every delivery. `scheme` is the URL's: http is refused unless every address is an allowed one.
 */
export async function resolveCheckedAddresses(
  hostname: string,
  options: HostCheckOptions,
  scheme: WebhookScheme = 'https:',
): Promise<string[]> {
  const allow = toRanges(options.allowCidrs);
  // Without an allow list nothing is local: the contract's rules, refused before any lookup.
  if (scheme === 'http:' && allow.length === 0) throw refusedHost(hostname, REASONS.https, 'NOT_HTTPS');
  if (hostname === '') throw refusedHost(hostname, REASONS.noHost);
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const literal = literalAddress(bare);
  if (literal !== null) {
    if (isAllowed(literal, allow)) return [literal];
    throw refusedHost(hostname, REASONS.ipLiteral);
  }
  const name = bare.replace(/\.$/, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) {
    const loopback = LOOPBACK.filter((address) => isAllowed(address, allow));
    if (loopback.length > 0) return loopback;
    throw refusedHost(hostname, REASONS.localhost);
  }
  const singleLabel = !name.includes('.');
  if (singleLabel && allow.length === 0) throw refusedHost(hostname, REASONS.singleLabel);
  const addresses = await lookUp(hostname, options.dns);
  // Wholly inside the allowed ranges: the operator's own network, any scheme and any name.
  if (addresses.every((address) => isAllowed(address, allow))) return addresses;
  if (singleLabel) throw refusedHost(hostname, REASONS.singleLabel);
  if (scheme === 'http:') throw refusedHost(hostname, REASONS.https, 'NOT_HTTPS');
  for (const address of addresses) {
    const range = nonPublicRange(address, allow);
    if (range !== null) {
      throw new UnsafeWebhookHostError(
        'NOT_PUBLIC',
        hostname,
        `url host resolves to a non-public address (${address})`,
        `webhook host ${hostname} resolves to a non-public address ${address} (${range})`,
        address,
      );
    }
  }
  return addresses;
}

type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** The create/update check; `reason` goes into the 400 message. */
export async function checkWebhookUrl(raw: string, options: HostCheckOptions): Promise<WebhookUrlCheck> {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH)
    return { ok: false, reason: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'url is not a valid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: REASONS.https };
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'url must not contain a user name or password' };
  try {
    await resolveCheckedAddresses(url.hostname, options, url.protocol);
  } catch (error) {
    if (error instanceof UnsafeWebhookHostError) return { ok: false, reason: error.reason };
    throw error;
  }
  return { ok: true, url };
}

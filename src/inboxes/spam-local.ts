// Herald's built-in spam verdict, used when HERALD_RSPAMD_URL is unset (and when rspamd cannot be
// reached). Points add up from the rules below; 10 or more is `spam`, 5 or more `suspicious`, else
// `clean`. Documented in README.md beside this file; the rules are few and explainable on purpose.
//
// Authentication comes from mailauth on the message and its connection: SPF for the envelope sender
// and the client address, DKIM signatures, and DMARC for the From domain (lookups through
// HERALD_DNS_SERVERS).
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { DnsResolver } from '../adapters/dns.ts';
import { lazy } from '../platform/lazy.ts';
import type { ParsedInboundMessage } from './parse-message.ts';

/** mailauth (with its ASN.1 and certificate packages), read at the first inbound message. */
const mailauth = lazy(() => import('mailauth'));
/** The name SPF's results give this host, asked of the system once: each call is a system call. */
const MTA_NAME = hostname();

export type SpamVerdict = 'clean' | 'suspicious' | 'spam';

export interface SpamDecision {
  verdict: SpamVerdict;
  /** Why: the rules that fired, the authentication results, or rspamd's answer. */
  details: Record<string, unknown>;
}

export interface Connection {
  remoteAddress: string;
  mailFrom: string;
  /** The name the client gave in EHLO/HELO, when known. */
  helo?: string;
}

/** The GTUBE test string (Generic Test for Unsolicited Bulk Email), which every filter calls spam. */
const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';
const EXECUTABLE = /\.(exe|scr|pif|com|bat|cmd|vbs|vbe|js|jse|wsf|hta|msi|jar|lnk)$/i;

export const SPAM_AT = 10;
export const SUSPICIOUS_AT = 5;

interface Rule {
  name: string;
  points: number;
}

interface AuthResults {
  spf: string;
  dkim: string;
  dmarc: string;
  dmarcPolicy: string | null;
}

export type MailauthResolver = (name: string, rrtype: string) => Promise<unknown>;

/** Answers (and "no such record") are reused this long: a sender's burst asks the same few names. */
const DNS_CACHE_MS = 60_000;
const DNS_CACHE_ENTRIES = 5_000;

/**
 * mailauth's resolver (dns.resolve's shapes) over Herald's DnsResolver, with a small per-process
 * cache, as an MTA's caching resolver would have: messages from one sender ask for the same SPF and
 * DMARC records again and again. Temporary failures are not kept.
 */
export function mailauthResolver(dns: DnsResolver, now: () => number = Date.now): MailauthResolver {
  const cache = new Map<string, { until: number; answer: Promise<unknown> }>();
  return (name, rrtype) => {
    const key = `${rrtype} ${name.toLowerCase()}`;
    const hit = cache.get(key);
    if (hit !== undefined && hit.until > now()) return hit.answer;
    const answer = lookup(dns, name, rrtype);
    if (cache.size >= DNS_CACHE_ENTRIES) cache.clear();
    cache.set(key, { until: now() + DNS_CACHE_MS, answer });
    answer.catch((error: { code?: string }) => {
      if (error.code !== 'ENOTFOUND' && error.code !== 'ENODATA') cache.delete(key);
    });
    return answer;
  };
}

async function lookup(dns: DnsResolver, name: string, rrtype: string): Promise<unknown> {
  switch (rrtype) {
    case 'TXT':
      return (await dns.resolveTxt(name)).map((record) => [record]);
    case 'MX':
      return dns.resolveMx(name);
    case 'A':
      return dns.resolve4(name);
    case 'AAAA':
      return dns.resolve6(name);
    default:
      throw Object.assign(new Error(`no ${rrtype} lookups`), { code: 'ENOTFOUND' });
  }
}

/** Whether the header (up to the first blank line) carries a DKIM-Signature field. */
export function hasDkimSignature(raw: Buffer): boolean {
  const crlf = raw.indexOf('\r\n\r\n');
  const end = crlf >= 0 ? crlf : raw.indexOf('\n\n');
  const header = end < 0 ? raw : raw.subarray(0, end);
  return /^dkim-signature[ \t]*:/im.test(header.toString('latin1'));
}

function resultsOf(
  spfResult: { status: { result: unknown } } | false,
  dkim: string,
  dmarcResult: unknown,
): AuthResults {
  const dmarcFound =
    dmarcResult === false || dmarcResult === undefined
      ? null
      : (dmarcResult as { status: { result: unknown }; policy?: string });
  return {
    spf: spfResult === false ? 'none' : String(spfResult.status.result),
    dkim,
    dmarc: dmarcFound === null ? 'none' : String(dmarcFound.status.result),
    dmarcPolicy: dmarcFound?.policy ?? null,
  };
}

/**
 * A signed message: mailauth's whole authentication (DKIM signatures over header and body, SPF,
 * DMARC with the DKIM and SPF results).
 */
async function signedResults(raw: Buffer, connection: Connection, resolver: MailauthResolver): Promise<AuthResults> {
  const { authenticate } = await mailauth();
  const result = await authenticate(raw, {
    ip: connection.remoteAddress,
    sender: connection.mailFrom,
    helo: connection.helo,
    resolver: resolver as never,
    disableArc: true,
    disableBimi: true,
  });
  const dkims = result.dkim.results.map((r) => r.status.result);
  return resultsOf(result.spf, dkims.includes('pass') ? 'pass' : (dkims[0] ?? 'none'), result.dmarc);
}

/**
 * An unsigned message: SPF for the connection and DMARC for the From addresses, as mailauth's
 * authenticate() computes them, without its DKIM pass over the message (nothing is signed, and that
 * pass was most of the verdict's cost: bench/RESULTS.md).
 */
async function unsignedResults(
  headerFrom: string[],
  connection: Connection,
  resolver: MailauthResolver,
): Promise<AuthResults> {
  const { spf, dmarc } = await mailauth();
  const helo = connection.helo ?? connection.remoteAddress;
  const spfResult = await spf({
    ip: connection.remoteAddress,
    sender: connection.mailFrom,
    helo: isIP(helo) ? `[${helo}]` : helo,
    mta: MTA_NAME,
    resolver: resolver as never,
  });
  const passed = spfResult && spfResult.status.result === 'pass' ? spfResult.domain : undefined;
  const dmarcResult =
    headerFrom.length === 0
      ? false
      : await dmarc({ headerFrom, spfDomains: passed ? [passed] : [], dkimDomains: [], resolver: resolver as never });
  return resultsOf(spfResult, 'none', dmarcResult);
}

async function authResults(
  raw: Buffer,
  message: ParsedInboundMessage,
  connection: Connection,
  resolver: MailauthResolver,
): Promise<AuthResults> {
  try {
    return hasDkimSignature(raw)
      ? await signedResults(raw, connection, resolver)
      : await unsignedResults(message.fromAddresses, connection, resolver);
  } catch {
    return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror', dmarcPolicy: null };
  }
}

export async function localVerdict(
  raw: Buffer,
  message: ParsedInboundMessage,
  connection: Connection,
  resolver: MailauthResolver,
): Promise<SpamDecision> {
  const auth = await authResults(raw, message, connection, resolver);
  const rules: Rule[] = [];
  const body = `${message.subject}\n${message.text ?? ''}\n${message.html ?? ''}`;
  if (body.includes(GTUBE)) rules.push({ name: 'GTUBE', points: 1000 });
  // The From domain's owner asks receivers to refuse or quarantine mail that fails DMARC.
  if (auth.dmarc === 'fail' && (auth.dmarcPolicy === 'reject' || auth.dmarcPolicy === 'quarantine'))
    rules.push({ name: 'DMARC_FAIL_ENFORCED', points: 10 });
  else if (auth.dmarc === 'fail') rules.push({ name: 'DMARC_FAIL', points: 3 });
  if (auth.spf === 'fail') rules.push({ name: 'SPF_FAIL', points: 4 });
  else if (auth.spf === 'softfail') rules.push({ name: 'SPF_SOFTFAIL', points: 2 });
  if (auth.dkim === 'fail') rules.push({ name: 'DKIM_FAIL', points: 3 });
  if (message.attachments.some((a) => EXECUTABLE.test(a.filename)))
    rules.push({ name: 'EXECUTABLE_ATTACHMENT', points: 5 });
  if (message.fromAddress === null) rules.push({ name: 'NO_FROM', points: 3 });
  if (message.messageId === null) rules.push({ name: 'NO_MESSAGE_ID', points: 1 });
  if (!message.headers.has('date')) rules.push({ name: 'NO_DATE', points: 1 });
  if (
    message.subject.length >= 10 &&
    message.subject === message.subject.toUpperCase() &&
    /[A-Z]/.test(message.subject)
  )
    rules.push({ name: 'SUBJECT_ALL_CAPS', points: 2 });
  const score = rules.reduce((sum, rule) => sum + rule.points, 0);
  const verdict: SpamVerdict = score >= SPAM_AT ? 'spam' : score >= SUSPICIOUS_AT ? 'suspicious' : 'clean';
  return { verdict, details: { engine: 'herald', score, rules: rules.map((r) => r.name), auth } };
}

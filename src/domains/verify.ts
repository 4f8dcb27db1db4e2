// One DNS check of a domain: asks DNS for each record records.ts tells the user to publish and says,
// record by record, whether it is there and right, missing or wrong, or could not be looked up now.
import { DnsLookupError, type DnsResolver, type MxRecord } from '../adapters/dns.ts';
import { dkimTags, publishesDkimKey } from './dkim.ts';
import { dkimNameFor, dmarcNameFor, type DomainDnsNames } from './records.ts';

type CheckStatus = 'SUCCESS' | 'FAILED' | 'TEMPORARY_FAILURE';

export interface RecordCheck {
  status: CheckStatus;
  /** Plain words for the user when the record is not right: which record, what was found. */
  problem: string | null;
}

export interface DnsCheck {
  dkim: RecordCheck;
  spf: RecordCheck;
  mx: RecordCheck;
  /** Recommended only: recorded, never decides the domain's status. */
  dmarc: RecordCheck;
  /** Over the required records (DKIM, SPF, MX): any FAILED wins, then any TEMPORARY_FAILURE. */
  overall: CheckStatus;
}

const ok: RecordCheck = { status: 'SUCCESS', problem: null };
const failed = (problem: string): RecordCheck => ({ status: 'FAILED', problem });

/** Long values (a DKIM key) shortened for messages. */
function quote(value: string, max = 80): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max - 1)}…` : value);
}

/** Runs a lookup; NOT_FOUND becomes an empty answer, a temporary failure a RecordCheck to return. */
async function lookup<T>(what: string, run: () => Promise<T[]>): Promise<T[] | RecordCheck> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DnsLookupError && error.kind === 'NOT_FOUND') return [];
    const detail = error instanceof DnsLookupError ? error.message : String(error);
    return { status: 'TEMPORARY_FAILURE', problem: `${what}: DNS lookup failed temporarily: ${detail}` };
  }
}

const isCheck = (value: unknown): value is RecordCheck => !Array.isArray(value);

async function checkDkim(dns: DnsResolver, name: string, publicKey: string): Promise<RecordCheck> {
  const records = await lookup('DKIM', () => dns.resolveTxt(name));
  if (isCheck(records)) return records;
  if (records.length === 0) return failed(`DKIM: no TXT record found at ${name}`);
  if (records.some((record) => publishesDkimKey(record, publicKey))) return ok;
  const keyed = records.find((record) => dkimTags(record).has('p'));
  return failed(
    keyed === undefined
      ? `DKIM: the TXT record at ${name} has no p= public key (found ${quote(records[0]!)})`
      : `DKIM: the TXT record at ${name} carries a different public key than this domain's (found ${quote(keyed)})`,
  );
}

const isSpf = (record: string) => /^v=spf1(\s|$)/i.test(record.trim());

/** The record authorises us when it has `include:<mail domain>` with a pass qualifier (none or +). */
function spfAuthorises(record: string, mailDomain: string): boolean {
  return record
    .trim()
    .split(/\s+/)
    .some((term) => term.toLowerCase().replace(/^\+/, '') === `include:${mailDomain}`);
}

async function checkSpf(dns: DnsResolver, returnPath: string, mailDomain: string): Promise<RecordCheck> {
  const records = await lookup('SPF', () => dns.resolveTxt(returnPath));
  if (isCheck(records)) return records;
  const spf = records.filter(isSpf);
  if (spf.length === 0) return failed(`SPF: no "v=spf1" TXT record found at ${returnPath}`);
  // RFC 7208 4.5: more than one SPF record is a permanent error for every receiver.
  if (spf.length > 1) {
    return failed(
      `SPF: ${spf.length} "v=spf1" TXT records found at ${returnPath} (${spf.map((r) => quote(r)).join(', ')}); publish exactly one`,
    );
  }
  if (!spfAuthorises(spf[0]!, mailDomain)) {
    return failed(`SPF: the record at ${returnPath} (${quote(spf[0]!)}) does not contain include:${mailDomain}`);
  }
  return ok;
}

const hostEquals = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

async function checkMx(dns: DnsResolver, returnPath: string, mailDomain: string): Promise<RecordCheck> {
  const records = await lookup<MxRecord>('MX', () => dns.resolveMx(returnPath));
  if (isCheck(records)) return records;
  if (records.length === 0) return failed(`MX: no MX record found at ${returnPath}`);
  if (records.some((record) => hostEquals(record.exchange, mailDomain))) return ok;
  const found = records.map((record) => `${record.priority} ${record.exchange}`).join(', ');
  return failed(`MX: ${returnPath} points at ${found}, not at ${mailDomain}`);
}

async function checkDmarc(dns: DnsResolver, domain: string): Promise<RecordCheck> {
  const name = dmarcNameFor(domain);
  const records = await lookup('DMARC', () => dns.resolveTxt(name));
  if (isCheck(records)) return records;
  return records.some((record) => /^v=DMARC1(\s*;|\s*$)/i.test(record.trim()))
    ? ok
    : failed(`DMARC (recommended): no "v=DMARC1" TXT record found at ${name}`);
}

export async function checkDomainDns(dns: DnsResolver, domain: DomainDnsNames, mailDomain: string): Promise<DnsCheck> {
  const [dkim, spf, mx, dmarc] = await Promise.all([
    checkDkim(dns, dkimNameFor(domain.dkimSelector, domain.name), domain.dkimPublicKey),
    checkSpf(dns, domain.returnPath, mailDomain),
    checkMx(dns, domain.returnPath, mailDomain),
    checkDmarc(dns, domain.name),
  ]);
  const required = [dkim, spf, mx];
  const overall: CheckStatus = required.some((r) => r.status === 'FAILED')
    ? 'FAILED'
    : required.some((r) => r.status === 'TEMPORARY_FAILURE')
      ? 'TEMPORARY_FAILURE'
      : 'SUCCESS';
  return { dkim, spf, mx, dmarc, overall };
}

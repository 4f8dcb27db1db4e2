// The DNS records a domain must publish, built from its row and HERALD_MAIL_DOMAIN; verify.ts checks
// exactly these. Names are fully qualified (no trailing dot), so they are unambiguous whatever the
// DNS provider's form expects.
//
// - DKIM: TXT at <selector>._domainkey.<domain> carrying the domain's own public key.
// - Return path (bounce domain) send.<domain>: SPF `include:<mail domain>`, so the operator keeps the
//   list of sending addresses in one record of their own (the mail domain's SPF) and every team's
//   domain follows it; and an MX pointing at the mail domain, where Herald's SMTP listener reads the
//   bounces and complaint reports. DMARC alignment is relaxed (the return path is a subdomain).
// - DMARC at _dmarc.<domain>, p=none: recommended only.
import type { DomainStatus } from '../db/schema.ts';
import { dkimRecordValue } from './dkim.ts';

const RETURN_PATH_LABEL = 'send';
const MX_PRIORITY = 10;
/** Shown to the user: publish with the provider's default TTL. */
const TTL = 'Auto';

interface RecordStatuses {
  dkim: DomainStatus;
  spf: DomainStatus;
  mx: DomainStatus;
  dmarc: DomainStatus;
}

export interface DomainDnsNames {
  name: string;
  dkimSelector: string;
  dkimPublicKey: string;
  returnPath: string;
}

interface DnsRecordView {
  type: 'MX' | 'TXT';
  name: string;
  value: string;
  ttl: string;
  priority: string | null;
  status: DomainStatus;
  recommended: boolean;
  inbound?: true;
}

/**
 * The MX a domain needs once the team has an inbox on it (src/inboxes): mail for the domain itself
 * goes to Herald's listener. Marked `inbound`; not checked by verification (sending does not need it).
 */
export function inboundMxRecord(domainName: string, mailDomain: string): DnsRecordView {
  return {
    type: 'MX',
    name: domainName,
    value: mailDomain,
    ttl: TTL,
    priority: String(MX_PRIORITY),
    status: 'NOT_STARTED',
    recommended: false,
    inbound: true,
  };
}

export const returnPathFor = (domain: string) => `${RETURN_PATH_LABEL}.${domain}`;
export const dkimNameFor = (selector: string, domain: string) => `${selector}._domainkey.${domain}`;
export const dmarcNameFor = (domain: string) => `_dmarc.${domain}`;
const spfValueFor = (mailDomain: string) => `v=spf1 include:${mailDomain} ~all`;
const DMARC_VALUE = 'v=DMARC1; p=none;';

export function dnsRecords(domain: DomainDnsNames, mailDomain: string, statuses: RecordStatuses): DnsRecordView[] {
  return [
    {
      type: 'TXT',
      name: dkimNameFor(domain.dkimSelector, domain.name),
      value: dkimRecordValue(domain.dkimPublicKey),
      ttl: TTL,
      priority: null,
      status: statuses.dkim,
      recommended: false,
    },
    {
      type: 'TXT',
      name: domain.returnPath,
      value: spfValueFor(mailDomain),
      ttl: TTL,
      priority: null,
      status: statuses.spf,
      recommended: false,
    },
    {
      type: 'MX',
      name: domain.returnPath,
      value: mailDomain,
      ttl: TTL,
      priority: String(MX_PRIORITY),
      status: statuses.mx,
      recommended: false,
    },
    {
      type: 'TXT',
      name: dmarcNameFor(domain.name),
      value: DMARC_VALUE,
      ttl: TTL,
      priority: null,
      status: statuses.dmarc,
      recommended: true,
    },
  ];
}

// Request and response schemas of the Domains endpoints (contract: "Domain", "Domains (FULL)").
import { domainToASCII } from 'node:url';
import { z } from 'zod';

const DOMAIN_STATUSES = ['NOT_STARTED', 'PENDING', 'SUCCESS', 'FAILED', 'TEMPORARY_FAILURE'] as const;
export const DomainStatus = z.enum(DOMAIN_STATUSES);

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Why `input` is not a usable domain name, or null when it is. Checked on the ASCII (punycode) form:
 * at least two labels of letters, digits and inner hyphens, at most 63 characters each and 253 in all,
 * no trailing dot, and a top-level label that is not all digits (so no IP addresses).
 */
function domainNameProblem(ascii: string): string | null {
  if (ascii.endsWith('.')) return 'must not end with a dot';
  if (ascii.length > 253) return 'must be at most 253 characters';
  const labels = ascii.split('.');
  if (labels.length < 2) return 'must have at least two labels, such as example.com';
  if (!labels.every((label) => LABEL.test(label))) {
    return 'must be labels of letters, digits and inner hyphens (1 to 63 characters each) joined by dots';
  }
  if (/^\d+$/.test(labels.at(-1)!)) return 'must end in a top-level domain, not a number';
  return null;
}

/** Lower-cased; internationalised names are taken in their punycode (xn--) form. */
const DomainName = z
  .string()
  .min(1)
  .max(253)
  .transform((value, ctx) => {
    const ascii = /^[\x21-\x7e]*$/.test(value) ? value.toLowerCase() : domainToASCII(value);
    const problem = ascii === '' ? 'must be a domain name such as example.com' : domainNameProblem(ascii);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return ascii;
  });

export const CreateDomainBody = z.object({
  name: DomainName.describe('the domain to send from, e.g. example.com; stored lower-cased'),
  region: z
    .string()
    .min(1)
    .max(64)
    .describe('recorded with the domain (Herald delivers mail itself; no provider region applies)'),
});

export const UpdateDomainTrackingBody = z
  .strictObject({
    openTracking: z
      .boolean()
      .optional()
      .describe('add a 1×1 pixel to delivered HTML and record OPENED when it is fetched'),
    clickTracking: z
      .boolean()
      .optional()
      .describe('rewrite http(s) links of delivered HTML to signed redirects that record CLICKED'),
  })
  .describe('Herald extension: the tracking flags to change; flags left out keep their value');

export const DomainParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const DnsRecord = z.object({
  type: z.enum(['MX', 'TXT']),
  name: z.string().describe('fully qualified name, without a trailing dot'),
  value: z.string(),
  ttl: z.string(),
  priority: z.string().nullable(),
  status: DomainStatus,
  recommended: z.boolean().describe('true: not required for verification (DMARC)'),
  inbound: z
    .boolean()
    .optional()
    .describe(
      "present and true on the MX needed to receive mail at the team's inboxes on this domain (Herald extension; not part of verification, status NOT_STARTED)",
    ),
});

export const Domain = z.object({
  id: z.number().int(),
  name: z.string(),
  teamId: z.number().int(),
  status: DomainStatus,
  region: z.string(),
  clickTracking: z.boolean(),
  openTracking: z.boolean(),
  publicKey: z.string().describe('base64 DER public key of the DKIM record (its p= tag)'),
  dkimStatus: z.string().nullable().describe('status of the DKIM record at the latest check'),
  spfDetails: z.string().nullable().describe('status of the return-path records (SPF and MX) at the latest check'),
  createdAt: z.string(),
  updatedAt: z.string(),
  dmarcAdded: z.boolean(),
  isVerifying: z.boolean(),
  errorMessage: z.string().nullable().describe('DNS lookups that failed temporarily at the latest check'),
  subdomain: z
    .string()
    .nullable()
    .describe('the return-path (bounce) domain whose SPF and MX records point at this service'),
  verificationError: z
    .string()
    .nullable()
    .describe('which records were missing or wrong at the latest check, and what was found'),
  lastCheckedTime: z.string().nullable(),
  dnsRecords: z.array(DnsRecord),
});

export const VerifyStarted = z.object({ message: z.string() });
export const DomainDeleted = z.object({ id: z.number().int(), success: z.boolean(), message: z.string() });
export const FlatError = z.object({ error: z.string() }).describe('flat error body of the Domains endpoints');
export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

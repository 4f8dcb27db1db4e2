// A domain row as the contract's Domain object.
import type { z } from 'zod';
import type { DomainRow } from './queries.ts';
import { dnsRecords, inboundMxRecord } from './records.ts';
import type { Domain } from './schemas.ts';

/** spfDetails reports the return path as a whole: both its SPF and its MX record must be right. */
function returnPathStatus(row: DomainRow): DomainRow['status'] {
  const order: DomainRow['status'][] = ['FAILED', 'TEMPORARY_FAILURE', 'PENDING', 'NOT_STARTED', 'SUCCESS'];
  return order.find((status) => row.spf_record_status === status || row.mx_record_status === status) ?? 'NOT_STARTED';
}

/** `hasInbox`: the team has an inbox on this domain, so its records include the inbound MX. */
export function domainView(row: DomainRow, mailDomain: string, hasInbox = false): z.infer<typeof Domain> {
  const records = dnsRecords(
    {
      name: row.name,
      dkimSelector: row.dkim_selector,
      dkimPublicKey: row.dkim_public_key,
      returnPath: row.return_path,
    },
    mailDomain,
    {
      dkim: row.dkim_record_status,
      spf: row.spf_record_status,
      mx: row.mx_record_status,
      dmarc: row.dmarc_record_status,
    },
  );
  return {
    id: row.id,
    name: row.name,
    teamId: row.team_id,
    status: row.status,
    region: row.region,
    clickTracking: row.click_tracking,
    openTracking: row.open_tracking,
    publicKey: row.dkim_public_key,
    dkimStatus: row.dkim_record_status,
    spfDetails: returnPathStatus(row),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    dmarcAdded: row.dmarc_record_status === 'SUCCESS',
    isVerifying: row.is_verifying,
    errorMessage: row.error_message,
    subdomain: row.return_path,
    verificationError: row.verification_error,
    lastCheckedTime: row.last_checked_at?.toISOString() ?? null,
    dnsRecords: hasInbox ? [...records, inboundMxRecord(row.name, mailDomain)] : records,
  };
}

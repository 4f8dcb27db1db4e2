// For the email capability: may a team send from a domain, and with which DKIM key. A domain may send
// while its latest definite check found every required record (a temporary DNS failure or a fresh
// check in progress does not stop mail); a deleted domain never sends.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Secrets } from '../platform/crypto.ts';
import { findVerifiedDomain } from './queries.ts';

export interface SendingDomain {
  id: number;
  teamId: number;
  name: string;
  /** The bounce (MAIL FROM) domain: send.<name>. */
  returnPath: string;
  dkimSelector: string;
  /** PKCS#8 PEM, decrypted; keep it in memory only. */
  dkimPrivateKey: string;
  clickTracking: boolean;
  openTracking: boolean;
}

/** `domainName` is the part after @ of the from address; matched exactly (case-insensitive). */
export async function canSendFrom(db: Kysely<Database>, teamId: number, domainName: string): Promise<boolean> {
  return (await findVerifiedDomain(db, teamId, domainName)) !== undefined;
}

/** The id of the team's verified domain `domainName`, or undefined (a campaign keeps it). */
export async function sendingDomainId(
  db: Kysely<Database>,
  teamId: number,
  domainName: string,
): Promise<number | undefined> {
  return (await findVerifiedDomain(db, teamId, domainName))?.id;
}

export async function getSendingDomain(
  db: Kysely<Database>,
  secrets: Secrets,
  teamId: number,
  domainName: string,
): Promise<SendingDomain | null> {
  const row = await findVerifiedDomain(db, teamId, domainName);
  if (!row) return null;
  return {
    id: row.id,
    teamId: row.team_id,
    name: row.name,
    returnPath: row.return_path,
    dkimSelector: row.dkim_selector,
    dkimPrivateKey: secrets.decrypt(row.dkim_private_key),
    clickTracking: row.click_tracking,
    openTracking: row.open_tracking,
  };
}

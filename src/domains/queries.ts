// Every SQL statement of the Domains area, team id first. Deleted domains (deleted_at set) are kept
// for the record but no read here returns them.
import { sql, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import type { DomainsTable } from '../db/schema.ts';
import type { Db } from '../db/handle.ts';

export type DomainRow = Selectable<DomainsTable>;

interface NewDomain {
  name: string;
  region: string;
  dkimSelector: string;
  dkimPublicKey: string;
  sealedPrivateKey: string;
  returnPath: string;
}

/** Inserts a domain with its first check requested (PENDING, due now). */
export async function insertDomain(db: Db, teamId: number, domain: NewDomain, now: Date): Promise<DomainRow> {
  return db
    .insertInto('domains')
    .values({
      team_id: teamId,
      name: domain.name,
      region: domain.region,
      status: 'PENDING',
      dkim_selector: domain.dkimSelector,
      dkim_public_key: domain.dkimPublicKey,
      dkim_private_key: domain.sealedPrivateKey,
      return_path: domain.returnPath,
      is_verifying: true,
      verify_requested_at: now,
      next_check_at: now,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The team's live domains, newest first; `onlyId` narrows them to one (a domain-limited key). */
export async function listDomains(db: Db, teamId: number, onlyId: number | null): Promise<DomainRow[]> {
  let query = db.selectFrom('domains').selectAll().where('team_id', '=', teamId).where('deleted_at', 'is', null);
  if (onlyId !== null) query = query.where('id', '=', onlyId);
  return query.orderBy('id', 'desc').execute();
}

export async function getDomain(db: Db, teamId: number, id: number): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function domainExists(db: Db, teamId: number, id: number): Promise<boolean> {
  return (await getDomain(db, teamId, id)) !== undefined;
}

/** The name of a live domain of the team (what a domain-limited key may send from). */
export async function domainName(db: Db, teamId: number, id: number): Promise<string | undefined> {
  return (await getDomain(db, teamId, id))?.name;
}

/**
 * Starts a fresh check: PENDING, due now, and a new generation so that a check already running
 * does not answer for this request (see check-queue.ts).
 */
export async function requestDomainCheck(db: Db, teamId: number, id: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('domains')
    .set({
      status: 'PENDING',
      is_verifying: true,
      verify_requested_at: now,
      next_check_at: now,
      check_generation: sql`check_generation + 1`,
      updated_at: now,
    })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Herald extension: turns open and click tracking on or off; only the flags given change. Returns the
 * domain as it is afterwards, or undefined when the team has no such live domain.
 */
export async function updateDomainTracking(
  db: Db,
  teamId: number,
  id: number,
  changes: { openTracking?: boolean | undefined; clickTracking?: boolean | undefined },
  now: Date,
): Promise<DomainRow | undefined> {
  const set: Updateable<DomainsTable> = {};
  if (changes.openTracking !== undefined) set.open_tracking = changes.openTracking;
  if (changes.clickTracking !== undefined) set.click_tracking = changes.clickTracking;
  if (Object.keys(set).length === 0) return getDomain(db, teamId, id);
  return db
    .updateTable('domains')
    .set({ ...set, updated_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function softDeleteDomain(db: Db, teamId: number, id: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('domains')
    .set({ deleted_at: now, updated_at: now, is_verifying: false })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The live domain of that name whose latest definite check found every required record. */
/**
 * The verified domains among `names` (a text[] expression) of the team `teamId` (an int expression),
 * as a JSON array of [name, id] pairs or NULL: a fragment for another statement to embed, so the send
 * path reads them in the same round trip as the team's plan and suppressions.
 */
export function verifiedDomainsJson(
  teamId: RawBuilder<unknown>,
  names: RawBuilder<unknown>,
): RawBuilder<[string, number][] | null> {
  return sql<[string, number][] | null>`(SELECT json_agg(json_build_array(d.name, d.id)) FROM domains AS d
    WHERE d.team_id = ${teamId} AND d.name = ANY(${names}) AND d.deleted_at IS NULL AND d.verified_at IS NOT NULL)`;
}

/** The id of the team's verified domain `name` (int and text expressions), or NULL: a fragment to embed. */
export function verifiedDomainId(teamId: RawBuilder<unknown>, name: RawBuilder<unknown>): RawBuilder<number | null> {
  return sql<number | null>`(SELECT d.id FROM domains AS d
    WHERE d.team_id = ${teamId} AND d.name = ${name} AND d.deleted_at IS NULL AND d.verified_at IS NOT NULL LIMIT 1)`;
}

/** The name of the team's first verified domain (int expression), or NULL: a fragment to embed. */
export function firstVerifiedDomainName(teamId: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`(SELECT d.name FROM domains AS d WHERE d.team_id = ${teamId} AND d.deleted_at IS NULL
    AND d.verified_at IS NOT NULL ORDER BY d.id LIMIT 1)`;
}

/** The name of the team's domain `id` (int expressions), deleted or not, or NULL: a fragment to embed. */
export function domainNameOf(teamId: RawBuilder<unknown>, id: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`(SELECT d.name FROM domains AS d WHERE d.team_id = ${teamId} AND d.id = ${id})`;
}

export async function findVerifiedDomain(db: Db, teamId: number, name: string): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('name', '=', name.toLowerCase())
    .where('deleted_at', 'is', null)
    .where('verified_at', 'is not', null)
    .executeTakeFirst();
}

export type CheckResult = Pick<
  Updateable<DomainsTable>,
  | 'status'
  | 'dkim_record_status'
  | 'spf_record_status'
  | 'mx_record_status'
  | 'dmarc_record_status'
  | 'is_verifying'
  | 'error_message'
  | 'verification_error'
  | 'last_checked_at'
  | 'verified_at'
  | 'next_check_at'
  | 'updated_at'
>;

/**
 * Writes a check's result, only while the checking worker still holds the row (its lease), the row
 * is live, and no verify request came in since the check was claimed (same generation). False: the
 * result was dropped; a newer request keeps the row due.
 */
export async function saveCheckResult(
  db: Db,
  claimed: Pick<DomainRow, 'team_id' | 'id' | 'check_generation'>,
  leaseUntil: Date,
  result: CheckResult,
): Promise<boolean> {
  const updated = await db
    .updateTable('domains')
    .set(result)
    .where('team_id', '=', claimed.team_id)
    .where('id', '=', claimed.id)
    .where('check_lease_until', '=', leaseUntil)
    .where('check_generation', '=', claimed.check_generation)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** Hands checked rows back (the lease of this worker only) with their attempts counted afresh. */
export async function releaseChecks(db: Db, ids: number[], leaseUntil: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('domains')
    .set({ check_lease_until: null, check_attempts: 0 })
    .where('id', 'in', ids)
    .where('check_lease_until', '=', leaseUntil)
    .execute();
}

/**
 * Rows whose check could not run at all after every attempt (not a DNS answer: a fault of ours):
 * release them, try again at `retryAt`, and stop showing a check in progress.
 */
export async function giveUpChecks(
  db: Db,
  ids: number[],
  leaseUntil: Date,
  retryAt: Date,
  message: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('domains')
    .set({
      check_lease_until: null,
      check_attempts: 0,
      next_check_at: retryAt,
      is_verifying: false,
      error_message: message,
      status: sql`CASE WHEN status <> 'PENDING' THEN status WHEN verified_at IS NULL THEN 'TEMPORARY_FAILURE' ELSE 'SUCCESS' END`,
    })
    .where('id', 'in', ids)
    .where('check_lease_until', '=', leaseUntil)
    .execute();
}

/** The entries of `ids` that are not live domains of the team. */
export async function unknownDomainIds(db: Db, teamId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('domains')
    .select('id')
    .where('team_id', '=', teamId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  const known = new Set(rows.map((row) => row.id));
  return ids.filter((id) => !known.has(id));
}

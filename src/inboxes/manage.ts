// Creating and deleting inboxes (the admin API's operations, operator.md): an address on
// HERALD_MAIL_DOMAIN, or on one of the team's verified sending domains (whose MX must then point
// at Herald); a live inbox's address is unique across teams (409).
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/errors.ts';
import type { Database, InboxRow } from '../db/schema.ts';
import { ApiError, badRequest, notFound } from '../platform/errors.ts';
import { domainOf, inboxAddressOf } from './addresses.ts';
import { deleteInbox, insertInbox, verifiedDomainOf } from './queries.ts';

/** Return paths are bounce+…@: an inbox named bounce@ would take the bounces meant for Herald. */
const RESERVED_LOCAL_PARTS = new Set(['bounce']);

export async function createInbox(
  db: Kysely<Database>,
  teamId: number,
  input: { name: string; address: string },
  mailDomain: string,
  now: Date,
): Promise<InboxRow> {
  const address = input.address.trim().toLowerCase();
  if (inboxAddressOf(address) !== address)
    throw badRequest('address must be local@domain without a +tag (mail to local+anything@domain reaches the inbox)');
  if (RESERVED_LOCAL_PARTS.has(address.slice(0, address.lastIndexOf('@'))))
    throw badRequest('address: that local part is reserved for bounce return paths');
  const domain = domainOf(address);
  let domainId: number | null = null;
  if (domain !== mailDomain.toLowerCase()) {
    domainId = await verifiedDomainOf(db, teamId, domain);
    if (domainId === null)
      throw badRequest(
        `address must be on ${mailDomain} (HERALD_MAIL_DOMAIN) or on one of the team's verified sending domains`,
      );
  }
  try {
    return await insertInbox(db, teamId, { name: input.name, address, domainId }, now);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, 'CONFLICT', `address ${address} is already an inbox`);
    throw error;
  }
}

export async function removeInbox(db: Kysely<Database>, teamId: number, id: string, now: Date): Promise<void> {
  if (!(await deleteInbox(db, teamId, id, now))) throw notFound('inbox');
}

// The writes behind the public unsubscribe and confirmation links. Tenant first, like every query.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { contactsLeft, unsubscribedByEmail } from './hooks.ts';

// Idempotent: a contact that is already unsubscribed keeps the time it first left; one that was
// subscribed again since gets the new time. A pending double opt-in email is not sent any more.
// The contact's journey runs exit (UNSUBSCRIBED) in the same transaction (hooks.ts).
const unsubscribeSet = (now: Date) => ({
  subscribed: false,
  unsubscribed_at: sql<Date>`CASE WHEN subscribed OR unsubscribed_at IS NULL THEN ${now}::timestamptz ELSE unsubscribed_at END`,
  confirmation_due_at: null,
  updated_at: now,
});

/** One contact; returns whether it exists. Its journeys' runs exit in the same transaction. */
export async function unsubscribeContact(
  db: Kysely<Database>,
  teamId: number,
  contactId: string,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .updateTable('contacts')
      .set(unsubscribeSet(now))
      .where('team_id', '=', teamId)
      .where('id', '=', contactId)
      .returning('id')
      .execute();
    await contactsLeft(tx, { teamId, contactIds: rows.map((row) => row.id), reason: 'unsubscribed', now });
    return rows.length > 0;
  });
}

/**
 * An email recipient's link: the address joins the team's marketing unsubscribes and every contact of
 * the team with that address (in any book) is unsubscribed, in one transaction. Returns the number of
 * contacts changed.
 */
export async function unsubscribeAddress(
  db: Kysely<Database>,
  teamId: number,
  address: string,
  emailId: string,
  now: Date,
): Promise<number> {
  const email = address.trim().toLowerCase();
  return db.transaction().execute(async (tx) => {
    // From the teams row, so that the link of a team deleted since is a no-op, not a foreign-key error.
    const added = await tx
      .insertInto('unsubscribes')
      .columns(['team_id', 'email', 'email_id', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('teams')
          .select([
            'id as team_id',
            sql<string>`${email}::text`.as('email'),
            sql<string>`${emailId}::text`.as('email_id'),
            sql<Date>`${now}::timestamptz`.as('created_at'),
          ])
          .where('id', '=', teamId),
      )
      .onConflict((oc) => oc.columns(['team_id', 'email']).doNothing())
      .executeTakeFirst();
    // A second click of the link, or an address already unsubscribed, tells nobody again.
    if (Number(added.numInsertedOrUpdatedRows ?? 0n) > 0) await unsubscribedByEmail(tx, teamId, emailId);
    const rows = await tx
      .updateTable('contacts')
      .set(unsubscribeSet(now))
      .where('team_id', '=', teamId)
      .where('email', '=', email)
      .returning('id')
      .execute();
    await contactsLeft(tx, { teamId, contactIds: rows.map((row) => row.id), reason: 'unsubscribed', now });
    return rows.length;
  });
}

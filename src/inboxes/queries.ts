// Inboxes: the admin operations' SQL (team id first) and the listener's address lookups. The
// lookups by address take no team: the address is the key (unique among live inboxes), and every
// row they answer carries its team.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, InboxRow } from '../db/schema.ts';
import { verifiedDomainId } from '../domains/index.ts';
import { newId } from '../platform/ids.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Notified with an inbox's address when it is deleted (live-addresses.ts forgets it). */
export const INBOX_CHANNEL = 'herald_inbox_deleted';

export async function insertInbox(
  db: Db,
  teamId: number,
  inbox: { name: string; address: string; domainId: number | null },
  now: Date,
): Promise<InboxRow> {
  return db
    .insertInto('inboxes')
    .values({
      id: newId('inbox_', now),
      team_id: teamId,
      name: inbox.name,
      address: inbox.address,
      domain_id: inbox.domainId,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listInboxes(db: Db, teamId: number): Promise<InboxRow[]> {
  return db
    .selectFrom('inboxes')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A live inbox with when its latest message that is not spam arrived (the list's and the read's row). */
export type InboxWithLastReceived = InboxRow & { last_received_at: Date | null };

// The latest message per inbox is one step down inbox_messages_inbox_list (0014_inboxes.sql), so a
// page costs one index probe per inbox whatever the inbox holds. No count: that would read them all.
const lastReceived = sql<Date | null>`(SELECT m.received_at FROM inbox_messages m
  WHERE m.team_id = i.team_id AND m.inbox_id = i.id AND NOT m.is_spam
  ORDER BY m.received_at DESC, m.id DESC LIMIT 1)`;

/** The team's live inboxes, newest first (inboxes_team read backwards), after a page's last one. */
export async function listInboxesPage(
  db: Db,
  teamId: number,
  q: { after?: { createdAt: Date; id: string }; limit: number },
): Promise<InboxWithLastReceived[]> {
  const after =
    q.after === undefined ? sql`` : sql`AND (i.created_at, i.id) < (${q.after.createdAt}::timestamptz, ${q.after.id})`;
  const { rows } = await sql<InboxWithLastReceived>`
    SELECT i.*, ${lastReceived} AS last_received_at FROM inboxes i
    WHERE i.team_id = ${teamId}::int AND i.deleted_at IS NULL ${after}
    ORDER BY i.created_at DESC, i.id DESC
    LIMIT ${q.limit}`.execute(db);
  return rows;
}

/** One live inbox of the team; undefined for a deleted one, another team's or none. */
export async function getLiveInbox(db: Db, teamId: number, id: string): Promise<InboxWithLastReceived | undefined> {
  const { rows } = await sql<InboxWithLastReceived>`
    SELECT i.*, ${lastReceived} AS last_received_at FROM inboxes i
    WHERE i.team_id = ${teamId}::int AND i.id = ${id} AND i.deleted_at IS NULL`.execute(db);
  return rows[0];
}

/**
 * Frees the address; the row stays so that the inbox's messages still name it. The SMTP listeners
 * that remember the address as live are told on commit (live-addresses.ts).
 */
export async function deleteInbox(db: Db, teamId: number, id: string, now: Date): Promise<boolean> {
  const { rows } = await sql<{ address: string }>`
    WITH deleted AS (
      UPDATE inboxes SET deleted_at = ${now}
      WHERE team_id = ${teamId}::int AND id = ${id} AND deleted_at IS NULL
      RETURNING address)
    SELECT address, pg_notify(${INBOX_CHANNEL}, address) FROM deleted`.execute(db);
  return rows.length > 0;
}

/** The team's verified sending domain of that name, or null. */
export async function verifiedDomainOf(db: Db, teamId: number, name: string): Promise<number | null> {
  const { rows } = await sql<{
    id: number | null;
  }>`SELECT ${verifiedDomainId(sql`${teamId}::int`, sql`${name.toLowerCase()}::text`)} AS id`.execute(db);
  return rows[0]?.id ?? null;
}

/** Whether a live inbox has this address (lower case, no +tag). */
export async function liveInboxExists(db: Db, address: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM inboxes WHERE address = ${address} AND deleted_at IS NULL`.execute(db);
  return rows.length > 0;
}

/** The live inboxes of these addresses (several teams may be among them). */
export async function liveInboxesByAddress(db: Db, addresses: readonly string[]): Promise<InboxRow[]> {
  if (addresses.length === 0) return [];
  return db
    .selectFrom('inboxes')
    .selectAll()
    .where('address', 'in', [...new Set(addresses)])
    .where('deleted_at', 'is', null)
    .execute();
}

/** The team's domains that have a live inbox: their records include the inbound MX (domains cannot
 * import inboxes, which imports it, so app.ts hands this to the domains routes). */
export async function domainIdsWithInboxes(db: Db, teamId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('inboxes')
    .select('domain_id')
    .distinct()
    .where('team_id', '=', teamId)
    .where('deleted_at', 'is', null)
    .where('domain_id', 'is not', null)
    .execute();
  return new Set(rows.map((row) => row.domain_id!));
}

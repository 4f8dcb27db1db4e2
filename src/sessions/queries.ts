// The statements over sessions, and the reads of the member rows and teams a session's address has.
// A session is found by its token's keyed hash alone, as an API key is: the token is what names it,
// and its address (not a team) is what it belongs to. The membership reads join `members` and `teams`
// (accounts' tables) in the statement that finds the session, so a cookie request costs one round
// trip, as a cold key lookup does (platform/auth/queries.ts).
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { MemberRole, TeamPlan } from '../db/schema.ts';

/** Writes of last_seen_at are at least this far apart. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface SessionWithMember {
  id: string;
  email: string;
  token_hash: Buffer;
  last_seen_at: Date;
  /** The address's member row in the chosen team (or its first); null: none. */
  member_id: number | null;
  team_id: number | null;
  role: MemberRole | null;
  api_rate_limit: number | null;
}

/**
 * The session with this token hash and its address's member row in `teamId` (null: the address's
 * first team by id), with that team's API rate limit.
 */
export async function findSessionWithMember(
  db: Db,
  tokenHash: Buffer,
  teamId: number | null,
): Promise<SessionWithMember | undefined> {
  const result = await sql<SessionWithMember>`
    SELECT s.id, s.email, s.token_hash, s.last_seen_at, m.id AS member_id, m.team_id, m.role, t.api_rate_limit
    FROM sessions s
    LEFT JOIN LATERAL (
      SELECT mm.id, mm.team_id, mm.role FROM members mm
      WHERE lower(mm.email) = s.email AND (${teamId}::integer IS NULL OR mm.team_id = ${teamId}::integer)
      ORDER BY mm.team_id LIMIT 1
    ) m ON true
    LEFT JOIN teams t ON t.id = m.team_id
    WHERE s.token_hash = ${tokenHash}`.execute(db);
  return result.rows[0];
}

/** Records a request at `now` unless one was recorded within the last minute (in any process). */
export async function markSessionSeen(db: Db, sessionId: string, now: Date): Promise<void> {
  const staleBefore = new Date(now.getTime() - LAST_SEEN_RESOLUTION_MS);
  await db
    .updateTable('sessions')
    .set({ last_seen_at: now })
    .where('id', '=', sessionId)
    .where('last_seen_at', '<=', staleBefore)
    .execute();
}

export async function insertSession(
  db: Db,
  session: { id: string; email: string; tokenHash: Buffer; userAgent: string | null; at: Date },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      email: session.email,
      token_hash: session.tokenHash,
      user_agent: session.userAgent,
      created_at: session.at,
      last_seen_at: session.at,
    })
    .execute();
}

/** The address of a session (live or not); undefined when it is gone. */
export async function sessionEmail(db: Db, sessionId: string): Promise<string | undefined> {
  const row = await db.selectFrom('sessions').select('email').where('id', '=', sessionId).executeTakeFirst();
  return row?.email;
}

/** The address's sessions seen since `liveSince`, newest first. */
export async function listLiveSessions(db: Db, email: string, liveSince: Date) {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'user_agent'])
    .where('email', '=', email)
    .where('last_seen_at', '>', liveSince)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes one of the address's sessions; false when it has no such session. */
export async function deleteSession(db: Db, email: string, sessionId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('sessions')
    .where('email', '=', email)
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

export interface Membership {
  member_id: number;
  role: MemberRole;
  team_id: number;
  team_name: string;
  plan: TeamPlan;
}

/** Every team the address is a member of, by team id. */
export async function membershipsOf(db: Db, email: string): Promise<Membership[]> {
  const result = await sql<Membership>`
    SELECT m.id AS member_id, m.role, t.id AS team_id, t.name AS team_name, t.plan
    FROM members m JOIN teams t ON t.id = m.team_id
    WHERE lower(m.email) = ${email}
    ORDER BY t.id`.execute(db);
  return result.rows;
}

/** Whether the address is a member of any team. */
export async function isMemberAnywhere(db: Db, email: string): Promise<boolean> {
  const result = await sql<{ found: boolean }>`
    SELECT EXISTS (SELECT 1 FROM members WHERE lower(email) = ${email}) AS found`.execute(db);
  return result.rows[0]?.found === true;
}

/** Sessions idle since `idleBefore`: they can no longer be used. */
export async function purgeIdleSessions(db: Db, idleBefore: Date): Promise<number> {
  const deleted = await db.deleteFrom('sessions').where('last_seen_at', '<=', idleBefore).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

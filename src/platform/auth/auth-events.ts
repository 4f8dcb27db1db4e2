// Changes that cached principals depend on (a key deleted, a member's role, a team's rate limit)
// are announced on one NOTIFY channel; every API process drops the team's cached entries at commit.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const AUTH_CHANNEL = 'herald_auth';

/** Call inside the transaction that makes the change, so the notice fires only if it commits. */
export async function announceAuthChange(db: Kysely<Database>, teamId: number): Promise<void> {
  await sql`SELECT pg_notify(${AUTH_CHANNEL}, ${String(teamId)})`.execute(db);
}

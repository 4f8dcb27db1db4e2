// What every admin route file shares: the OpenAPI tag and security of the admin API, its common
// error answers, and the 404 for a team that does not exist.
import type { Kysely } from 'kysely';
import type { Database, Team } from '../db/schema.ts';
import { notFound } from '../platform/errors.ts';
import { getTeam } from '../accounts/index.ts';
import { AdminError } from './schemas.ts';

export const ADMIN_ROUTE = { tags: ['admin'], security: [{ adminToken: [] }] };
export const ADMIN_ERRORS = { 400: AdminError, 401: AdminError, 404: AdminError };

export async function requireTeam(db: Kysely<Database>, teamId: number): Promise<Team> {
  const team = await getTeam(db, teamId);
  if (!team) throw notFound('team');
  return team;
}

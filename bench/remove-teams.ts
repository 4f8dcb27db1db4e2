// Removing a benchmark's teams with everything they own. The partitioned tables keep no key to
// `teams` (migration 0028), so deleting a team no longer removes its emails, texts, codes, webhook
// calls or inbox messages: they are deleted first here, each family's root by team (the rows of a
// family, an email's events and recipients, go with their root by the keys within the month).
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';

const statement = (where: string) => `WITH doomed AS (SELECT id FROM teams WHERE ${where}),
  emails AS (DELETE FROM emails WHERE team_id IN (SELECT id FROM doomed)),
  texts AS (DELETE FROM sms_messages WHERE team_id IN (SELECT id FROM doomed)),
  codes AS (DELETE FROM verifications WHERE team_id IN (SELECT id FROM doomed)),
  calls AS (DELETE FROM webhook_calls WHERE team_id IN (SELECT id FROM doomed)),
  inbox AS (DELETE FROM inbox_messages WHERE team_id IN (SELECT id FROM doomed))
  DELETE FROM teams WHERE id IN (SELECT id FROM doomed)`;

/** Something that runs one statement with parameters: a pg Pool or Client, or Kysely. */
type Runner = { query(text: string, values: unknown[]): Promise<unknown> } | Kysely<Database>;

/**
 * Deletes the teams matching `where` (SQL over `teams`, with `$1`… for `params`) and their rows in
 * every partitioned table, in one statement.
 */
export async function removeTeams(db: Runner, where: string, params: unknown[] = []): Promise<void> {
  if ('executeQuery' in db) await db.executeQuery(CompiledQuery.raw(statement(where), params));
  else await db.query(statement(where), params);
}

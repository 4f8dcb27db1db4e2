// First start on an empty database: a team with an owner and one full access key made by that
// owner, so that a newcomer can call the API at once. Runs in one transaction; a database that
// already has a team is left alone.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createApiKey, type CreatedApiKey } from './auth/api-keys.ts';
import type { Secrets } from './crypto.ts';
import { addMember, createTeam } from './teams.ts';

interface BootstrapResult {
  teamId: number;
  ownerEmail: string;
  key: CreatedApiKey;
}

export async function bootstrapFirstTeam(
  db: Kysely<Database>,
  secrets: Secrets,
  now: Date,
): Promise<BootstrapResult | null> {
  return db.transaction().execute(async (tx) => {
    // Two processes starting at once against one server must not both create a team.
    await sql`LOCK TABLE teams IN SHARE ROW EXCLUSIVE MODE`.execute(tx);
    const existing = await tx.selectFrom('teams').select('id').limit(1).executeTakeFirst();
    if (existing) return null;
    const team = await createTeam(tx, { name: 'My team' }, now);
    const owner = await addMember(tx, team.id, { email: 'owner@localhost', name: 'Owner', role: 'OWNER' }, now);
    const key = await createApiKey(tx, secrets, team.id, { kind: 'full', name: 'First key', memberId: owner.id });
    return { teamId: team.id, ownerEmail: owner.email, key };
  });
}

export function bootstrapBanner(result: BootstrapResult, adminToken: string | null, baseUrl: string): string {
  const lines = [
    '',
    '  Herald is set up. This is shown once; keep these somewhere safe.',
    '',
    `  Team ${result.teamId}, owner ${result.ownerEmail}`,
    `  Full access API key:  ${result.key.key}`,
  ];
  if (adminToken !== null) lines.push(`  Admin token:          ${adminToken}`);
  lines.push('', `  Try it:  curl -H "Authorization: Bearer ${result.key.key}" ${baseUrl}/v1/whoami`, '');
  return lines.join('\n');
}

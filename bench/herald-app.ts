// The Herald side of the HTTP benchmarks: the real app on the bench database (migrated), a team with
// the given plan and a very large API rate limit (the limiter still runs on every request), an
// OWNER, and a full access key made by that owner. Imported lazily by the server child only.
import pino from 'pino';
import { BENCH_DATABASE_URL } from './database.ts';

/** HERALD_SECRET of every benchmark's Herald: a parent process can sign tokens its server child accepts. */
export const BENCH_SECRET = 'bench-secret-0123456789-0123456789-abc';

export async function benchHerald(teamName: string, plan: 'free' | 'pro', apiRateLimit: number) {
  const { buildApp } = await import('../src/app.ts');
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/build-deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { createTeam, addMember, updateTeam, createApiKey } = await import('../src/accounts/index.ts');
  const config = { ...loadConfig({}), databaseUrl: BENCH_DATABASE_URL, secret: BENCH_SECRET, adminToken: null };
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  await migrate(deps.database);
  const now = new Date();
  const team = await createTeam(deps.db, { name: teamName, plan }, now);
  await updateTeam(deps.db, team.id, { apiRateLimit }, now);
  const owner = await addMember(deps.db, team.id, { email: `bench-${team.id}@example.test`, role: 'OWNER' }, now);
  const { key } = await createApiKey(deps.db, deps.secrets, team.id, { kind: 'full', memberId: owner.id });
  const app = await buildApp(deps);
  return { deps, app, team, key, now };
}

// The delivery benchmarks' team and sending domain (email-delivery, direct-delivery): created through
// the API and marked verified in the database, once no other email waits for delivery.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { addMember, createApiKey, createTeam, updateTeam } from '../src/accounts/index.ts';
import { buildApp } from '../src/app.ts';
import type { Deps } from '../src/deps.ts';
import { getSendingDomain, type SendingDomain } from '../src/domains/index.ts';
import { BENCH_DATABASE_URL } from './database.ts';
import { removeTeams } from './remove-teams.ts';

/** The team, its API key and app, and its verified sending domain with the DKIM record a sink checks. */
export interface DeliveryTeam {
  team: { id: number };
  app: FastifyInstance;
  authorization: string;
  domainName: string;
  domain: SendingDomain;
  dkimKey: { domain: string; selector: string; txt: string };
  from: string;
}

/**
 * Creates the team `name` (its earlier runs' teams, and those of `clearTeams`, removed first) with a
 * domain `<domainLabel>-<team id>.bench.example.test`; refuses when other emails wait for delivery.
 */
export async function seedDeliveryTeam(
  deps: Deps,
  o: { name: string; domainLabel: string; clearTeams?: string[]; app?: FastifyInstance },
): Promise<DeliveryTeam> {
  const now = new Date();
  await removeTeams(deps.db, 'name = ANY($1::text[])', [[o.name, ...(o.clearTeams ?? [])]]);
  const stray = await sql<{
    n: string;
  }>`SELECT count(*) AS n FROM emails WHERE status IN ('QUEUED', 'SCHEDULED')`.execute(deps.db);
  if (Number(stray.rows[0]!.n) > 0)
    throw new Error(
      `${stray.rows[0]!.n} other emails are waiting for delivery in ${BENCH_DATABASE_URL}; the worker would send them too`,
    );

  const team = await createTeam(deps.db, { name: o.name, plan: 'pro' }, now);
  await updateTeam(deps.db, team.id, { apiRateLimit: 1_000_000_000 }, now);
  const owner = await addMember(deps.db, team.id, { email: `bench-${team.id}@example.test`, role: 'OWNER' }, now);
  const { key } = await createApiKey(deps.db, deps.secrets, team.id, { kind: 'full', memberId: owner.id });
  // One app per deps: a second would register the same metrics again.
  const app = o.app ?? (await buildApp(deps));
  const authorization = `Bearer ${key}`;
  const domainName = `${o.domainLabel}-${team.id}.bench.example.test`;
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/domains',
    headers: { authorization },
    payload: { name: domainName, region: 'us-east-1' },
  });
  if (created.statusCode !== 200)
    throw new Error(`creating the domain answered ${created.statusCode}: ${created.body}`);
  const domainId = (created.json() as { id: number }).id;
  await deps.db
    .updateTable('domains')
    .set({ status: 'SUCCESS', verified_at: now, is_verifying: false })
    .where('id', '=', domainId)
    .execute();
  const domain = (await getSendingDomain(deps.db, deps.secrets, team.id, domainName))!;
  const publicKey = await deps.db
    .selectFrom('domains')
    .select('dkim_public_key')
    .where('id', '=', domainId)
    .executeTakeFirstOrThrow();
  const dkimKey = {
    domain: domainName,
    selector: domain.dkimSelector,
    txt: `v=DKIM1; k=rsa; p=${publicKey.dkim_public_key}`,
  };
  return { team, app, authorization, domainName, domain, dkimKey, from: `Herald Bench <bench@${domainName}>` };
}

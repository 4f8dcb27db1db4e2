// The direct delivery benchmark's team and sending domain (bench/direct-delivery.ts), created through
// the API and marked verified in the database, and what a run of either sender is given.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { addMember, createApiKey, createTeam, updateTeam } from '../../src/accounts/index.ts';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import type { Deps } from '../../src/deps.ts';
import { getSendingDomain, type SendingDomain } from '../../src/domains/index.ts';
import { BENCH_DATABASE_URL } from '../database.ts';
import type { DkimKeyInfo, Timed } from './sink.ts';

/** The team, its API key and app, and its verified sending domain. */
export interface Seeded {
  team: { id: number };
  app: FastifyInstance;
  authorization: string;
  domainName: string;
  domain: SendingDomain;
  dkimKey: DkimKeyInfo;
  from: string;
}

/** What a run is given: the seeded team, Herald's configuration and deps, and the sink. */
export interface Bench extends Seeded {
  config: Config;
  logger: Logger;
  deps: Deps;
  /** HERALD_DIRECT_MAX_CONNECTIONS as Herald read it; the bare pools get the same limit. */
  limit: number;
  /** The sink's port, on every destination's address. */
  port: number;
  timed: Timed;
}

/** Creates the team 'bench-direct-delivery' and its domain, once no other email waits for delivery. */
export async function seedTeam(deps: Deps): Promise<Seeded> {
  const now = new Date();
  await sql`DELETE FROM teams WHERE name = 'bench-direct-delivery'`.execute(deps.db);
  const stray = await sql<{
    n: string;
  }>`SELECT count(*) AS n FROM emails WHERE status IN ('QUEUED', 'SCHEDULED')`.execute(deps.db);
  if (Number(stray.rows[0]!.n) > 0)
    throw new Error(
      `${stray.rows[0]!.n} other emails are waiting for delivery in ${BENCH_DATABASE_URL}; the worker would send them too`,
    );

  const team = await createTeam(deps.db, { name: 'bench-direct-delivery', plan: 'pro' }, now);
  await updateTeam(deps.db, team.id, { apiRateLimit: 1_000_000_000 }, now);
  const owner = await addMember(deps.db, team.id, { email: `bench-${team.id}@example.test`, role: 'OWNER' }, now);
  const { key } = await createApiKey(deps.db, deps.secrets, team.id, { kind: 'full', memberId: owner.id });
  const app = await buildApp(deps);
  const authorization = `Bearer ${key}`;
  const domainName = `direct-${team.id}.bench.example.test`;
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
  const dkimKey: DkimKeyInfo = {
    domain: domainName,
    selector: domain.dkimSelector,
    txt: `v=DKIM1; k=rsa; p=${publicKey.dkim_public_key}`,
  };
  const from = `Herald Bench <bench@${domainName}>`;
  return { team, app, authorization, domainName, domain, dkimKey, from };
}

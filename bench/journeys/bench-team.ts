// The journeys benchmark's teams (bench/journeys.ts): a pro team with a very large API rate limit, an
// OWNER and a full key, a sending domain marked verified in the database and a template, and calls to
// the app in process as that team.
import type { FastifyInstance } from 'fastify';
import { addMember, createApiKey, createTeam, updateTeam } from '../../src/accounts/index.ts';
import type { Deps } from '../../src/deps.ts';

export interface BenchTeam {
  id: number;
  authorization: string;
  from: string;
  templateId: string;
}

/** One request through the app as `team`; anything but 2xx stops the benchmark. */
export async function call(
  app: FastifyInstance,
  team: BenchTeam,
  method: 'POST' | 'GET',
  url: string,
  payload?: unknown,
) {
  const response = await app.inject({
    method,
    url: `/api${url}`,
    headers: { authorization: team.authorization },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
  return response.json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A team named `name` (the benchmark's teams share a prefix, removed at start and end). */
export async function benchTeam(deps: Deps, app: FastifyInstance, name: string): Promise<BenchTeam> {
  const now = new Date();
  const team = await createTeam(deps.db, { name, plan: 'pro' }, now);
  await updateTeam(deps.db, team.id, { apiRateLimit: 1_000_000_000 }, now);
  const owner = await addMember(deps.db, team.id, { email: `bench-${team.id}@example.test`, role: 'OWNER' }, now);
  const { key } = await createApiKey(deps.db, deps.secrets, team.id, { kind: 'full', memberId: owner.id });
  const partial = { id: team.id, authorization: `Bearer ${key}`, from: '', templateId: '' };
  const domainName = `journeys-${team.id}.bench.example.test`;
  const domain = await call(app, partial, 'POST', '/v1/domains', { name: domainName, region: 'us-east-1' });
  await deps.db
    .updateTable('domains')
    .set({ status: 'SUCCESS', verified_at: now, is_verifying: false })
    .where('id', '=', domain.id)
    .execute();
  const template = await call(app, partial, 'POST', '/v1/templates', {
    name: 'Welcome',
    subject: 'Welcome, {{firstName}}',
    type: 'TRANSACTIONAL',
    html: '<p>Hello {{firstName}}, your plan is {{plan}}.</p>',
  });
  return { ...partial, from: `Bench <hello@${domainName}>`, templateId: template.id };
}

// A `herald start` that a process test provisions through the admin API, as a server deployment
// does (with DATABASE_URL there is no first-start banner to take a key from).
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { freePort, heraldEnv, http, makeDataDir, startHerald, waitForHealthy, type HeraldProcess } from './spawn.ts';

export interface AdminBody {
  id: number | string;
  key?: string;
  [field: string]: unknown;
}

/** A call to the admin API, which must succeed: 201 for a POST (each creates), 200 otherwise; the body. */
export type AdminCall = (method: string, path: string, body?: unknown) => Promise<AdminBody>;

export interface AdminHerald {
  /** The `herald start` process (a test may kill it); `env` starts the next one on the same data. */
  process: HeraldProcess;
  env: NodeJS.ProcessEnv;
  dataDir: string;
  port: number;
  adminToken: string;
  admin: AdminCall;
}

/** `herald start` on a data directory and port of its own, with `variables` and the test's admin token; healthy. */
export async function startAdminHerald(
  started: HeraldProcess[],
  variables: Record<string, string>,
  healthyWithinMs = 120_000,
): Promise<AdminHerald> {
  const port = await freePort();
  const adminToken = randomBytes(24).toString('hex');
  const dataDir = makeDataDir();
  const env = heraldEnv(dataDir, port, { LOG_LEVEL: 'warn', HERALD_ADMIN_TOKEN: adminToken, ...variables });
  const process = startHerald(['start'], env);
  started.push(process);
  await waitForHealthy(process, port, healthyWithinMs);
  const admin: AdminCall = async (method, path, body) => {
    const response = await http(port, method, `/admin/v1${path}`, adminToken, body);
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(method === 'POST' ? 201 : 200);
    return response.body as AdminBody;
  };
  return { process, env, dataDir, port, adminToken, admin };
}

/** What points a herald at a server database (which needs HERALD_SECRET); nothing for the embedded one. */
export function databaseVariables(databaseUrl: string | null): Record<string, string> {
  return databaseUrl === null ? {} : { DATABASE_URL: databaseUrl, HERALD_SECRET: randomBytes(32).toString('hex') };
}

/**
 * A team (`fields` as POST /admin/v1/teams takes them) with an owner and a full access key. A test
 * that polls often gives `apiRateLimit`: the default 10 requests a second would refuse it.
 */
export async function provisionTeam(
  admin: AdminCall,
  fields: Record<string, unknown>,
  apiRateLimit?: number,
): Promise<{ teamId: number | string; key: string }> {
  const team = await admin('POST', '/teams', fields);
  if (apiRateLimit !== undefined) await admin('PATCH', `/teams/${team.id}`, { apiRateLimit });
  const owner = await admin('POST', `/teams/${team.id}/members`, { email: 'owner@example.test', role: 'OWNER' });
  const key = (await admin('POST', `/teams/${team.id}/api-keys`, { kind: 'full', memberId: owner.id })).key!;
  return { teamId: team.id, key };
}

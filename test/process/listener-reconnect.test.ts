// Connections that come back: when the LISTEN connection of a running herald is terminated (as a
// PostgreSQL restart or failover would), /readyz answers 503 while it is down, the process
// reconnects and LISTENs again, drops its API key cache (a key deleted meanwhile is refused), and a
// key deleted by another process afterwards is refused within a second. Logged both ways.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanUpHeralds,
  freePort,
  heraldEnv,
  http,
  makeDataDir,
  startHerald,
  waitForHealthy,
  until,
} from '../support/spawn.ts';

const BASE_URL = process.env.DATABASE_URL;
let dropDatabase: (() => Promise<void>) | null = null;

afterEach(async () => {
  await cleanUpHeralds();
  await dropDatabase?.();
  dropDatabase = null;
});

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database on the test server for this test only (dropped in afterEach). */
async function freshDatabase(base: string): Promise<{ url: string; name: string }> {
  const url = new URL(base);
  const name = `${url.pathname.replace(/^\//, '') || 'postgres'}_listen_${process.pid}`;
  const admin = (statement: string) => withClient(base, (client) => client.query(statement));
  await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  dropDatabase = async () => {
    await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  };
  url.pathname = `/${name}`;
  return { url: url.toString(), name };
}

describe.skipIf(!BASE_URL)(
  'the LISTEN connection comes back (PostgreSQL only: PGlite listens in process, with no connection to lose)',
  { timeout: 300_000 },
  () => {
    it('reconnects after pg_terminate_backend; keys deleted while down and afterwards are refused', async () => {
      const database = await freshDatabase(BASE_URL!);
      const port = await freePort();
      const adminToken = randomBytes(24).toString('hex');
      const env = heraldEnv(makeDataDir(), port, {
        LOG_LEVEL: 'info',
        DATABASE_URL: database.url,
        HERALD_SECRET: randomBytes(32).toString('hex'),
        HERALD_ADMIN_TOKEN: adminToken,
      });
      const herald = startHerald(['start'], env);
      await waitForHealthy(herald, port, 180_000);
      await until('ready', 60_000, async () =>
        (await http(port, 'GET', '/readyz')).status === 200 ? true : undefined,
      );

      const admin = async (method: string, path: string, body: unknown) => {
        const response = await http(port, method, `/admin/v1${path}`, adminToken, body);
        expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
        return response.body as { id: number | string; key?: string };
      };
      const team = await admin('POST', '/teams', { name: 'listen', plan: 'pro' });
      const owner = await admin('POST', `/teams/${team.id}/members`, { email: 'owner@example.test', role: 'OWNER' });
      const makeKey = async () => {
        const created = await admin('POST', `/teams/${team.id}/api-keys`, { kind: 'full', memberId: owner.id });
        return { id: String(created.id), key: created.key! };
      };
      const missed = await makeKey();
      const later = await makeKey();
      const whoami = async (key: string) => (await http(port, 'GET', '/api/v1/whoami', key)).status;
      // Both keys are now in the process's cache.
      expect(await whoami(missed.key)).toBe(200);
      expect(await whoami(later.key)).toBe(200);

      // Deleting as another process does: the row and the notice, in one transaction.
      const deleteKey = (client: pg.Client, keyId: string) =>
        client.query(
          `WITH gone AS (DELETE FROM api_keys WHERE id = $1 RETURNING team_id)
           SELECT pg_notify('herald_auth', team_id::text) FROM gone`,
          [keyId],
        );

      // Opened first: once connections are disallowed, this one still deletes as another process would.
      await withClient(database.url, (dbClient) =>
        withClient(BASE_URL!, async (server) => {
          // Nobody may connect for now (superusers included), so the listener stays down.
          await server.query(`ALTER DATABASE ${pg.escapeIdentifier(database.name)} ALLOW_CONNECTIONS false`);
          const { rows } = await server.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'herald-listener'`,
            [database.name],
          );
          expect(rows).toHaveLength(1);
          await server.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);

          const down = await until('readyz not ready', 10_000, async () => {
            const response = await http(port, 'GET', '/readyz');
            return response.status === 503 ? response.body : undefined;
          });
          expect(down).toEqual({ status: 'database listener reconnecting' });

          // Deleted while nobody listens: the notice is lost.
          await deleteKey(dbClient, missed.id);
          await server.query(`ALTER DATABASE ${pg.escapeIdentifier(database.name)} ALLOW_CONNECTIONS true`);
        }),
      );

      await until('ready again', 30_000, async () =>
        (await http(port, 'GET', '/readyz')).status === 200 ? true : undefined,
      );
      // The cache was dropped on reconnect: the key deleted meanwhile is refused.
      expect(await whoami(missed.key)).toBe(401);
      expect(await whoami(later.key)).toBe(200);

      // Deleted after the reconnection: the notice arrives, and the key is refused within a second.
      await withClient(database.url, (client) => deleteKey(client, later.id));
      const deletedAt = performance.now();
      await until('deleted key refused', 5_000, async () => ((await whoami(later.key)) === 401 ? true : undefined));
      expect(performance.now() - deletedAt).toBeLessThan(1_000);

      const logs = herald.stdout();
      expect(logs).toMatch(/"msg":"database listener lost; notifications may be missed until it reconnects"/);
      expect(logs).toMatch(/"msg":"database listener reconnected; LISTEN again, subscribers resynchronised"/);
    });
  },
);

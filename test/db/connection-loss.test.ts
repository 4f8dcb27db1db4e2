// A lost PostgreSQL connection is an error like any other, never the end of the process. Every
// backend of the worker's database is terminated (as a restart, a failover or a proxy would) while
// requests and email delivery run: nothing is thrown outside a caller (before the fix a pooled
// client checked out between two statements emitted 'error' with no listener: an uncaught
// exception), a request caught by it answers 503 in the error shape, and later requests succeed;
// every email the API took is delivered exactly once. /readyz answers 503 while the database admits
// no connection and 200 once it does, and answers within its bound when the server never replies.
import net from 'node:net';
import Fastify from 'fastify';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_LOST_RETRY_MS } from '../../src/db/retry.ts';
import type { Database } from '../../src/db/schema.ts';
import { DELIVERY_LEASE_MS } from '../../src/emails/delivery.ts';
import { READY_CHECK_TIMEOUT_MS, registerHealth } from '../../src/platform/health.ts';
import type { QueueRunner } from '../../src/queue/index.ts';
import { startDeliveryRunner } from '../emails/delivery-support.ts';
import { emails, startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';

const BASE_URL = process.env.DATABASE_URL;
/**
 * Past the delivery queue's lease (a batch whose last write was lost) and the retry time of work a
 * lost connection failed; far short of the queue's backoff (5 minutes), which such work must not wait.
 */
const LEASE_AND_BACKOFF_MS = Math.max(DELIVERY_LEASE_MS, CONNECTION_LOST_RETRY_MS) + 1_000;

/** The caught errors the process would have died of. */
const uncaught: unknown[] = [];
const collect = (error: unknown) => uncaught.push(error);

/** Runs `statement` on the server's maintenance database, beside the one under test. */
async function onServer<T extends pg.QueryResultRow>(statement: string, values: unknown[] = []): Promise<T[]> {
  const url = new URL(BASE_URL!);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query<T>(statement, values)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!BASE_URL)(
  'every backend terminated (PostgreSQL only: PGlite has no connection to lose)',
  { timeout: 180_000 },
  () => {
    let h: EmailHarness;
    let runner: QueueRunner;
    let team: SendingTeam;
    let database: string;

    const terminateEveryBackend = () =>
      onServer<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [database],
      );
    const allowConnections = (allow: boolean) =>
      onServer(`ALTER DATABASE ${pg.escapeIdentifier(database)} ALLOW_CONNECTIONS ${allow}`);

    const notSent = async (ids: string[]) =>
      (await h.t.deps.db.selectFrom('emails').select(['id', 'status']).where('id', 'in', ids).execute()).filter(
        (row) => row.status !== 'SENT',
      );

    beforeAll(async () => {
      process.on('uncaughtException', collect);
      process.on('unhandledRejection', collect);
      h = await startEmailHarness();
      runner = await startDeliveryRunner(h, h.t.deps.mailTransport);
      team = await h.team({ plan: 'pro' });
      const row = await h.t.deps.db
        .selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name'))
        .executeTakeFirstOrThrow();
      database = row.name;
    });
    afterEach(async () => {
      await allowConnections(true);
      expect(uncaught.splice(0)).toEqual([]);
    });
    afterAll(async () => {
      await runner?.stop();
      await h?.close();
      process.off('uncaughtException', collect);
      process.off('unhandledRejection', collect);
    });

    it('requests and deliveries under way fail like any error; later ones succeed; each email goes once', async () => {
      const accepted: string[] = [];
      const refused: { status: number; body: unknown }[] = [];
      let n = 0;
      const send = async () => {
        const i = n++;
        const response = await emails(h.app, team.key).send({
          from: team.from(),
          to: `loss-${i}@example.test`,
          subject: `loss ${i}`,
          text: 'sent while the database connections were ended',
        });
        if (response.statusCode === 200) accepted.push((response.json() as { emailId: string }).emailId);
        else refused.push({ status: response.statusCode, body: response.json() });
      };
      const sendMany = (count: number) =>
        Promise.all(
          Array.from({ length: 8 }, async () => {
            for (let j = 0; j < count / 8; j++) await send();
          }),
        );

      for (let round = 0; round < 3; round++) {
        const load = sendMany(40);
        // Once the worker is delivering, so that its connections are in use too.
        await expect.poll(() => accepted.length > round * 40 + 8, { timeout: 30_000, interval: 5 }).toBe(true);
        expect((await terminateEveryBackend()).length).toBeGreaterThan(0);
        await load;
      }
      for (const failure of refused) {
        expect(failure).toEqual({
          status: 503,
          body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'The database is unavailable; retry shortly' } },
        });
      }
      // The pool has new connections: the next requests succeed at the first try.
      const before = refused.length;
      await sendMany(16);
      expect(refused.length).toBe(before);
      // Work a lost connection failed was put back with a retry time (seconds away) or, when
      // even that write was lost, keeps its lease: both on the test clock, moved on while no batch
      // is under way (the runner stopped), so that nothing held is taken twice.
      for (let moves = 0; moves < 5 && (await notSent(accepted)).length > 0; moves++) {
        await runner.idle();
        await runner.stop();
        h.t.clock.advance(LEASE_AND_BACKOFF_MS);
        runner = await startDeliveryRunner(h, h.t.deps.mailTransport);
        await runner.idle();
      }
      expect(await notSent(accepted)).toEqual([]);
      // Exactly once: one message in the log transport's outbox per email.
      const copies = await h.t.deps.db
        .selectFrom('outbox')
        .select(['email_id', (eb) => eb.fn.countAll<string>().as('copies')])
        .where('team_id', '=', team.id)
        .groupBy('email_id')
        .execute();
      const copiesOf = new Map(copies.map((row) => [row.email_id, Number(row.copies)]));
      expect(accepted.filter((id) => copiesOf.get(id) !== 1).map((id) => `${id}: ${copiesOf.get(id) ?? 0}`)).toEqual(
        [],
      );
      await runner.idle();
    });

    it('/readyz answers 503 while the database admits no connection, then 200', async () => {
      const ready = async () => {
        const started = performance.now();
        const response = await h.app.inject({ method: 'GET', url: '/readyz' });
        expect(performance.now() - started).toBeLessThan(READY_CHECK_TIMEOUT_MS + 1_000);
        return response;
      };
      expect((await ready()).statusCode).toBe(200);
      await allowConnections(false);
      await terminateEveryBackend();
      const down = await ready();
      expect(down.statusCode).toBe(503);
      expect(['database unreachable', 'database listener reconnecting']).toContain(down.json().status);
      // Requests meanwhile: 503 in the error shape, not a stack.
      const refused = await emails(h.app, team.key).list();
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({
        error: { code: 'SERVICE_UNAVAILABLE', message: 'The database is unavailable; retry shortly' },
      });
      expect(refused.headers['retry-after']).toBe('1');
      await allowConnections(true);
      await expect.poll(async () => (await ready()).statusCode, { timeout: 30_000, interval: 50 }).toBe(200);
      expect((await emails(h.app, team.key).list()).statusCode).toBe(200);
    });
  },
);

describe('/readyz against a server that never answers', () => {
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  beforeAll(async () => {
    // Accepts connections and says nothing: a database behind a dropped route or a hung proxy.
    silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('answers 503 within its bound, and probes meanwhile share one check', async () => {
    const { port } = silent.address() as net.AddressInfo;
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ host: '127.0.0.1', port, user: 'herald', max: 2 }) }),
    });
    const app = Fastify();
    registerHealth(app, db);
    try {
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 5 }, () => app.inject({ method: 'GET', url: '/readyz' })));
      expect(performance.now() - started).toBeLessThan(READY_CHECK_TIMEOUT_MS + 1_000);
      expect(answers.map((answer) => [answer.statusCode, answer.json()])).toEqual(
        Array.from({ length: 5 }, () => [503, { status: 'database unreachable' }]),
      );
      // One connection attempt for the five probes.
      expect(sockets.size).toBe(1);
    } finally {
      await app.close();
      for (const socket of sockets) socket.destroy();
      await db.destroy().catch(() => {});
    }
  });
});

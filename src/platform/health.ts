// /healthz: the process answers. /readyz: the database answers, every migration is applied and the
// LISTEN connection is up.
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { pendingMigrations } from '../db/migrate.ts';

export function registerHealth(
  app: FastifyInstance,
  db: Kysely<Database>,
  listener: { listening(): boolean } = { listening: () => true },
): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    // Without LISTEN this process misses key deletions and wake-ups: not ready until it is back.
    if (!listener.listening()) return reply.code(503).send({ status: 'database listener reconnecting' });
    try {
      await sql`SELECT 1`.execute(db);
      const pending = await pendingMigrations(db);
      if (pending.length > 0) return reply.code(503).send({ status: 'migrations pending', pending });
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });
}

// /healthz: the process answers. /readyz: the database answers and every migration is applied.
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { pendingMigrations } from '../db/migrate.ts';

export function registerHealth(app: FastifyInstance, db: Kysely<Database>): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
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

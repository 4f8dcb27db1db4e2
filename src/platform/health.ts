// /healthz: the process answers. /readyz: the database answers, every migration is applied and the
// LISTEN connection is up.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { pendingMigrations } from '../db/migrate.ts';

/**
 * How long /readyz waits for the database. An unreachable server (a failover, a dropped route) can
 * leave a connection attempt hanging for minutes; a probe must answer not ready well before that.
 */
export const READY_CHECK_TIMEOUT_MS = 2_000;

type Readiness = { ready: true } | { ready: false; status: string; pending?: string[] };

export function registerHealth(
  app: FastifyInstance,
  db: Kysely<Database>,
  listener: { listening(): boolean } = { listening: () => true },
): void {
  // One check at a time: probes arriving while the database hangs share it instead of piling up
  // waits for a pool connection.
  let checking: Promise<Readiness> | null = null;
  const check = () => {
    checking ??= checkDatabase(db).finally(() => {
      checking = null;
    });
    return checking;
  };
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    // Without LISTEN this process misses key deletions and wake-ups: not ready until it is back.
    if (!listener.listening()) return reply.code(503).send({ status: 'database listener reconnecting' });
    const readiness = await withinReadyTimeout(check());
    if (readiness.ready) return { status: 'ready' };
    const { ready: _, ...body } = readiness;
    return reply.code(503).send(body);
  });
}

async function checkDatabase(db: Kysely<Database>): Promise<Readiness> {
  try {
    // One statement: it proves a pooled connection works, and reads the applied migrations.
    const pending = await pendingMigrations(db);
    if (pending.length > 0) return { ready: false, status: 'migrations pending', pending };
    return { ready: true };
  } catch {
    return { ready: false, status: 'database unreachable' };
  }
}

function withinReadyTimeout(readiness: Promise<Readiness>): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Readiness>((resolve) => {
    timer = setTimeout(() => resolve({ ready: false, status: 'database unreachable' }), READY_CHECK_TIMEOUT_MS);
  });
  return Promise.race([readiness, timeout]).finally(() => clearTimeout(timer));
}

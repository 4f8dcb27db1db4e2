// The contacts area's endpoints: contact books and the contacts in them.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { registerContactBookRoutes } from './book-routes.ts';
import { registerContactRoutes } from './contact-routes.ts';

export function registerContactsArea(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; reads?: Kysely<Database>; clock: Clock },
): void {
  registerContactBookRoutes(app, deps);
  registerContactRoutes(app, deps);
}

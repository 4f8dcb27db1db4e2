// The contacts area's endpoints: contact books and the contacts in them.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.ts';
import { registerContactBookRoutes } from './book-routes.ts';
import { registerContactRoutes } from './contact-routes.ts';

export function registerContactsArea(app: FastifyInstance, deps: Pick<Deps, 'db' | 'clock'>): void {
  registerContactBookRoutes(app, deps);
  registerContactRoutes(app, deps);
}

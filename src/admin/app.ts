// The admin API alone, for `herald admin` served in process: the same HTTP base (http-app.ts), area
// hooks and admin routes as the server's, without the public API's areas, OpenAPI and metrics, so
// a command loads a fraction of the server's modules.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.ts';
import { createHttpApp, registerAreaHooks } from '../http-app.ts';
import { adminDepsOf } from './admin-deps.ts';
import { registerAdminRoutes } from './routes.ts';

export async function buildAdminApp(deps: Deps): Promise<FastifyInstance> {
  const app = createHttpApp(deps);
  registerAreaHooks();
  await app.register(async (admin) => registerAdminRoutes(admin, adminDepsOf(deps)), { prefix: '/admin/v1' });
  return app;
}

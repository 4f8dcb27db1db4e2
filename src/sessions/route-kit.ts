// What the session route files share: their dependencies, OpenAPI tag and security, error answers,
// and the session of a request admitted with access `session` or `sessionAdmin`.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { ApiError } from '../platform/errors.ts';
import type { PriceList } from '../platform/price-list.ts';
import type { RateLimiter } from '../platform/rate-limit/index.ts';
import { sessionEmail } from './queries.ts';
import * as s from './schemas.ts';
import type { InstanceFacts } from './session-view.ts';

export interface SessionRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  rateLimiter: RateLimiter;
  logger: { warn(obj: object, msg: string): void };
  prices: PriceList;
  instance: InstanceFacts;
  /** The Stripe settings: Pro by card opens a Stripe Checkout (plan-route.ts). */
  stripe: Config['stripe'];
}

export const SESSION_ROUTE = { tags: ['session'], security: [{ sessionCookie: [] }] };
export const SESSION_ERRORS = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody };

/** The session of a request admitted with access `session` or `sessionAdmin`: its id and address. */
export async function currentSession(db: Kysely<Database>, request: FastifyRequest) {
  const id = principalOf(request).sessionId!;
  const email = await sessionEmail(db, id);
  if (email === undefined) throw new ApiError(401, 'UNAUTHORIZED', 'The session has ended; sign in again');
  return { id, email };
}

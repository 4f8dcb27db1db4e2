// What the admin API uses, taken from the deps by app.ts and admin/app.ts; each admin route file
// takes the part it reads.
import type { Kysely } from 'kysely';
import type { Deps } from '../deps.ts';
import type { Database, TeamPlan } from '../db/schema.ts';
import type { PrincipalCache } from '../platform/auth/principal-cache.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import type { PriceList } from '../platform/price-list.ts';

export interface AdminDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  /** Cached keys of a team are dropped when its members or keys change. */
  principals: PrincipalCache;
  /** HERALD_ADMIN_TOKEN; null turns the admin API off. */
  adminToken: string | null;
  prices: PriceList;
  /** HERALD_DEFAULT_PLAN: the plan of a team created without one. */
  defaultPlan: TeamPlan;
  mailDomain: string;
  publicUrl: string;
  /** HERALD_RETENTION_BODIES_DAYS / HERALD_RETENTION_EVENTS_DAYS (`herald admin retention`). */
  retention: { bodiesDays: number; eventsDays: number };
}

export function adminDepsOf(deps: Deps): AdminDeps {
  const { db, clock, secrets, principals, config } = deps;
  return {
    db,
    clock,
    secrets,
    principals,
    adminToken: config.adminToken,
    prices: config.prices,
    defaultPlan: config.defaultPlan,
    mailDomain: config.mailDomain,
    publicUrl: config.publicUrl,
    retention: config.retention,
  };
}

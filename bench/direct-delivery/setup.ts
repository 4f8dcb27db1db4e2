// The direct delivery benchmark's team and sending domain (bench/direct-delivery.ts), created through
// the API and marked verified in the database, and what a run of either sender is given.
import type { Logger } from 'pino';
import type { Config } from '../../src/config.ts';
import type { Deps } from '../../src/deps.ts';
import { seedDeliveryTeam, type DeliveryTeam } from '../delivery-team.ts';
import type { Timed } from './sink.ts';

/** The team, its API key and app, and its verified sending domain. */
export type Seeded = DeliveryTeam;

/** What a run is given: the seeded team, Herald's configuration and deps, and the sink. */
export interface Bench extends Seeded {
  config: Config;
  logger: Logger;
  deps: Deps;
  /** HERALD_DIRECT_MAX_CONNECTIONS as Herald read it; the bare pools get the same limit. */
  limit: number;
  /** The sink's port, on every destination's address. */
  port: number;
  timed: Timed;
}

/** Creates the team 'bench-direct-delivery' and its domain, once no other email waits for delivery. */
export function seedTeam(deps: Deps): Promise<Seeded> {
  return seedDeliveryTeam(deps, { name: 'bench-direct-delivery', domainLabel: 'direct' });
}

// Numbers an operator tunes: risk score thresholds and how long inbound originals, bodies and
// events are kept.
import { ConfigError } from '../config-error.ts';
import { wholeNumber, type Env } from './parse.ts';

/** Raw inbound originals: HERALD_INBOUND_RETENTION_DAYS, else as long as bodies (HERALD_RETENTION_BODIES_DAYS). */
export function inboundRetentionDays(env: Env): number {
  const bodies = retentionDays(env).bodiesDays;
  return wholeNumber(env, 'HERALD_INBOUND_RETENTION_DAYS', bodies, 1, 3650, 'a whole number of days from 1 to 3650');
}

export function retentionDays(env: Env): { bodiesDays: number; eventsDays: number } {
  const days = (name: string, fallback: number) =>
    wholeNumber(env, name, fallback, 1, 3650, 'a whole number of days from 1 to 3650');
  return { bodiesDays: days('HERALD_RETENTION_BODIES_DAYS', 30), eventsDays: days('HERALD_RETENTION_EVENTS_DAYS', 90) };
}

export function riskThresholds(env: Env): { mediumAt: number; highAt: number } {
  const score = (name: string, fallback: number) =>
    wholeNumber(env, name, fallback, 1, 100, 'a whole number from 1 to 100');
  const mediumAt = score('HERALD_RISK_MEDIUM_AT', 30);
  const highAt = score('HERALD_RISK_HIGH_AT', 60);
  if (highAt <= mediumAt)
    throw new ConfigError('HERALD_RISK_HIGH_AT', `a score above HERALD_RISK_MEDIUM_AT (${mediumAt})`, String(highAt));
  return { mediumAt, highAt };
}

// HERALD_SECRET and HERALD_ADMIN_TOKEN: their lengths are checked, their values never echoed.
import { ConfigError } from '../config-error.ts';
import { text, type Env } from './parse.ts';

export function instanceSecrets(
  env: Env,
  withDatabaseUrl: boolean,
): { secret: string | null; adminToken: string | null } {
  const secret = text(env, 'HERALD_SECRET');
  if (secret !== null && secret.length < 32) {
    throw new ConfigError('HERALD_SECRET', 'a random string of at least 32 characters', '<hidden>');
  }
  if (withDatabaseUrl && secret === null) {
    throw new ConfigError(
      'HERALD_SECRET',
      'a random string of at least 32 characters (required with DATABASE_URL)',
      '',
    );
  }
  const adminToken = text(env, 'HERALD_ADMIN_TOKEN');
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError('HERALD_ADMIN_TOKEN', 'a random string of at least 16 characters', '<hidden>');
  }
  return { secret, adminToken };
}

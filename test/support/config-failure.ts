// The ConfigError loadConfig throws for an environment (a test fails if it accepts it).
import { ConfigError, loadConfig } from '../../src/config.ts';

export function configFailure(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
}

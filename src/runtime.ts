// Opening the service's resources for a command: configuration, the embedded data directory lock,
// instance secrets, dependencies, migrations. Each command composes these.
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock.ts';
import { migrate } from './db/migrate.ts';
import { buildDeps, createLogger, type Deps } from './deps.ts';
import { bootstrapBanner, bootstrapFirstTeam } from './platform/bootstrap.ts';
import { resolveInstanceSecrets } from './platform/instance-secrets.ts';

export interface Runtime {
  deps: Deps;
  adminTokenGenerated: boolean;
  close(): Promise<void>;
}

/** Loads configuration or exits with the message naming the bad variable. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`herald: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

export async function openRuntime(config: Config): Promise<Runtime> {
  // PGlite does not lock its directory; two processes writing one directory lose data.
  const unlock = config.databaseUrl === null ? lockDataDir(config.dataDir) : () => {};
  try {
    const resolved = resolveInstanceSecrets(config);
    const deps = await buildDeps(resolved.config);
    return {
      deps,
      adminTokenGenerated: resolved.adminTokenGenerated,
      async close() {
        await deps.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

export async function migrateAndBootstrap(runtime: Runtime): Promise<void> {
  const { deps } = runtime;
  const applied = await migrate(deps.database);
  if (applied.length > 0) deps.logger.info({ applied }, 'migrations applied');
  if (deps.config.databaseUrl !== null) return; // a server deployment provisions through the admin API
  const result = await bootstrapFirstTeam(deps.db, deps.secrets, deps.clock.now());
  if (result) {
    const baseUrl = `${deps.config.publicUrl}${deps.config.apiPrefix}`;
    process.stdout.write(`${bootstrapBanner(result, deps.config.adminToken, baseUrl)}\n`);
  } else if (runtime.adminTokenGenerated) {
    process.stdout.write(`\n  Admin token (generated, shown once): ${deps.config.adminToken}\n\n`);
  }
}

export function reportStartupFailure(error: unknown): never {
  if (error instanceof DataDirLockedError || error instanceof ConfigError) {
    process.stderr.write(`herald: ${error.message}\n`);
    process.exit(2);
  }
  createLogger({ logLevel: 'error' }).fatal({ err: error }, 'start-up failed');
  process.exit(1);
}

export { buildApp };

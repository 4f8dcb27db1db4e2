// Opening the service's resources for a command, its configuration read: the embedded data directory lock,
// instance secrets, dependencies, migrations. Each command composes these.
import { buildApp } from './app.ts';
import { ConfigError, type Config } from './config.ts';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock.ts';
import { ensurePrivateDataDir, makeDataDirPrivate, tightenUmask } from './db/data-dir-privacy.ts';
import { migrate } from './db/migrate.ts';
import { buildDeps, createLogger } from './build-deps.ts';
import type { Deps, DepsOverrides } from './deps.ts';
import { bootstrapBanner, bootstrapFirstTeam } from './accounts/index.ts';
import { mintSignInLink } from './sessions/index.ts';
import { resolveInstanceSecrets, secretsFilePath, type SecretSources } from './platform/instance-secrets.ts';
import { StartupProblem } from './startup-problem.ts';

export interface Runtime {
  deps: Deps;
  adminTokenGenerated: boolean;
  /** Where each instance secret came from (the banner prints none that the environment gave);
   * openRuntime sets it, runtimes assembled by hand (tests, benchmarks) may leave it out. */
  secretSources?: SecretSources;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, overrides: DepsOverrides = {}): Promise<Runtime> {
  const loosened = config.databaseUrl === null ? privateDataDir(config.dataDir) : 0;
  // PGlite does not lock its directory; two processes writing one directory lose data.
  const unlock = config.databaseUrl === null ? lockDataDir(config.dataDir) : () => {};
  try {
    const resolved = resolveInstanceSecrets(config);
    const deps = await buildDeps(resolved.config, overrides);
    logDataDirAndSecrets(deps, loosened, resolved.sources);
    return {
      deps,
      adminTokenGenerated: resolved.adminTokenGenerated,
      secretSources: resolved.sources,
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

/** Embedded mode: the data directory and all it holds owner-only; returns how many entries were not. */
function privateDataDir(dataDir: string): number {
  ensurePrivateDataDir(dataDir);
  tightenUmask();
  return makeDataDirPrivate(dataDir);
}

function logDataDirAndSecrets(deps: Deps, loosened: number, sources: SecretSources): void {
  if (loosened > 0) {
    deps.logger.warn(
      { dataDir: deps.config.dataDir, entries: loosened },
      'data directory had group- or world-accessible entries; made owner-only (0700 folders, 0600 files)',
    );
  }
  // Where each secret came from, never its value.
  deps.logger.info({ secret: sources.secret, adminToken: sources.adminToken }, 'instance secrets');
  for (const name of sources.unusedInFile) {
    deps.logger.warn(
      { secret: name, file: secretsFilePath(deps.config.dataDir) },
      `${name === 'secret' ? 'HERALD_SECRET' : 'HERALD_ADMIN_TOKEN'} from the environment wins over the value secrets.json still holds`,
    );
  }
}

export async function applyMigrations(runtime: Runtime): Promise<void> {
  const { deps } = runtime;
  const applied = await migrate(deps.database);
  if (applied.length > 0) deps.logger.info({ applied }, 'migrations applied');
}

/**
 * First start: the first team and the banner with its key. Called once the ports are bound, so that
 * a start that cannot listen creates nothing and the next one still prints the banner.
 */
export async function bootstrapAndGreet(runtime: Runtime): Promise<void> {
  const { deps } = runtime;
  if (deps.config.databaseUrl !== null) return; // a server deployment provisions through the admin API
  const { mailDomain, firstTeamPlan } = deps.config;
  const result = await bootstrapFirstTeam(deps.db, deps.secrets, deps.clock.now(), mailDomain, firstTeamPlan);
  if (result) {
    const baseUrl = `${deps.config.publicUrl}${deps.config.apiPrefix}`;
    const { adminToken, publicUrl, mailTransport } = deps.config;
    // The first owner signs in to the dashboard with a link, as `herald admin sign-in-link` gives one.
    const signIn = await mintSignInLink(
      { db: deps.db, secrets: deps.secrets, publicUrl },
      result.ownerEmail,
      deps.clock.now(),
    );
    const banner = bootstrapBanner(result, {
      adminToken,
      // An origin not known is treated as the operator's: never print a secret Herald may not have made.
      adminTokenFromEnvironment: (runtime.secretSources?.adminToken ?? 'environment') === 'environment',
      publicUrl,
      baseUrl,
      mailDomain,
      transport: mailTransport.kind,
      signInUrl: signIn?.url ?? null,
    });
    process.stdout.write(`${banner}\n`);
  } else if (runtime.adminTokenGenerated) {
    process.stdout.write(`\n  Admin token (generated, shown once): ${deps.config.adminToken}\n\n`);
  }
}

/** One line for what the operator fixes (a variable, a busy port, the database); a logged stack for the rest. */
export function reportStartupFailure(error: unknown): never {
  if (error instanceof DataDirLockedError || error instanceof ConfigError || error instanceof StartupProblem) {
    process.stderr.write(`herald: ${error.message}\n`);
    process.exit(error instanceof StartupProblem ? error.exitCode : 2);
  }
  createLogger({ logLevel: 'error' }, process.stderr).fatal({ err: error }, 'start-up failed');
  process.exit(1);
}

export { buildApp };

// `herald admin …`: the admin API's operations from the command line, JSON on stdout, a clear
// message and a non-zero exit on failure. Every command is one admin API request, except jobs such
// as `contacts import` that send several through the same transport. It goes over
// HTTP to a running server when the embedded database is held by one (or HERALD_ADMIN_URL is set);
// otherwise the request is served in-process by the same routes, so both paths behave alike.
import { parseArgs } from 'node:util';
import type { Config } from './config.ts';
import { ConfigError } from './config-error.ts';
import { dataDirOf } from './config/data-dir.ts';
import { databaseUrl } from './config/database-url.ts';
import { httpUrl } from './config/parse.ts';
import { dataDirHolder } from './db/data-dir-lock.ts';
import { resolveInstanceSecrets, secretsFilePath } from './platform/instance-secrets.ts';
import { localServerUrl, runningServerUrl } from './platform/running-server.ts';
import { adminCommands, type AdminJob, type AdminRequest, type AdminResponse } from './admin/cli-commands.ts';
import { tableOf } from './admin/cli-table.ts';
import { baselineCompilerOnly, rerunWithBaselineCompiler } from './admin/cli-child.ts';

const HELP = `Usage: herald admin <resource> <action> [options]

${adminCommands.map((c) => `  ${c.usage}`).join('\n')}

Output: a table on a terminal; JSON when piped or with --json. Set HERALD_ADMIN_URL (and HERALD_ADMIN_TOKEN) to manage a remote server.
`;

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

interface AdminTransport {
  send(request: AdminRequest): Promise<AdminResponse>;
  close(): Promise<void>;
}

function httpTransport(baseUrl: string, token: string): AdminTransport {
  return {
    async send(request) {
      const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/admin/v1${request.path}`, {
        method: request.method,
        headers: { authorization: `Bearer ${token}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
        body: request.body ? JSON.stringify(request.body) : undefined,
      }).catch((error: Error) => {
        throw new Error(
          `could not reach the admin API at ${baseUrl} (${error.message}); set PORT/HOST or HERALD_ADMIN_URL to the running server`,
        );
      });
      return { status: response.status, body: await response.text() };
    },
    async close() {},
  };
}

/**
 * The server holding the embedded data directory: at PORT (and HOST) when PORT is given, as the
 * environment wins everywhere else; otherwise where it recorded itself in the data directory.
 */
function holderUrl(config: Config, holder: number): string {
  const portGiven = (process.env.PORT ?? '').trim() !== '';
  const recorded = portGiven ? null : runningServerUrl(config.dataDir, holder);
  return recorded ?? localServerUrl(config.host, config.port);
}

/** Serves requests in this process through the same routes; opened once for every request of a command. */
async function inProcessTransport(config: Config): Promise<AdminTransport> {
  // Loaded here: a command sent to a running server needs none of the server's modules.
  const [{ createLogger }, { openRuntime }, { migrate }, { buildAdminApp }] = await Promise.all([
    import('./platform/logger.ts'),
    import('./runtime.ts'),
    import('./db/migrate.ts'),
    import('./admin/app.ts'),
  ]);
  // stdout carries the command's answer; the process's log lines go to stderr.
  const runtime = await openRuntime(config, { logger: createLogger(config, process.stderr) });
  if (runtime.adminTokenGenerated) {
    // operator.md: a generated admin token is printed; this command is the one that generated it.
    process.stderr.write(
      `herald admin: generated the admin token ${runtime.deps.config.adminToken} (kept in ${secretsFilePath(config.dataDir)})\n`,
    );
  }
  try {
    await migrate(runtime.deps.database);
    const app = await buildAdminApp({ ...runtime.deps, logger: runtime.deps.logger.child({}, { level: 'silent' }) });
    return {
      async send(request) {
        const response = await app.inject({
          method: request.method,
          url: `/admin/v1${request.path}`,
          headers: { authorization: `Bearer ${runtime.deps.config.adminToken}` },
          ...(request.body ? { payload: request.body } : {}),
        });
        return { status: response.statusCode, body: response.body };
      },
      async close() {
        await app.close();
        await runtime.close();
      },
    };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

/** The embedded database, in a data directory no server holds: the command is served in this process. */
function inProcess(env: NodeJS.ProcessEnv): boolean {
  return databaseUrl(env) === null && dataDirHolder(dataDirOf(env)) === null;
}

/**
 * `herald admin …` with `argv` after "admin". `commandLine`: this process is that command
 * (main.ts), so that one served in process may run again in a child (cli-child.ts); other callers
 * (tests) are served in this process.
 */
export async function runAdminCli(argv: string[], { commandLine = false } = {}): Promise<number> {
  // operator.md names `herald admin outbox`, `sms-outbox`, `destinations` and `retention`: a resource given alone runs its only listing.
  const [resource, given, ...tail] = argv;
  const listings = ['outbox', 'sms-outbox', 'dns', 'destinations', 'retention'];
  const defaultsToList =
    resource !== undefined && listings.includes(resource) && (given === undefined || given.startsWith('--'));
  // operator.md: `herald admin sign-in-link <email>`, the address where an action would be.
  const signInLink = resource === 'sign-in-link' && given !== 'create';
  const action = signInLink ? 'create' : defaultsToList ? (resource === 'dns' ? 'records' : 'list') : given;
  const rest = (defaultsToList || signInLink) && given !== undefined ? [given, ...tail] : tail;
  const command = adminCommands.find((c) => c.resource === resource && c.action === action);
  if (!command) {
    (resource === undefined || resource === '--help' ? process.stdout : process.stderr).write(HELP);
    return resource === undefined || resource === '--help' ? 0 : 2;
  }
  let config: Config;
  let remote: string | null;
  let request: AdminRequest | AdminJob;
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({
      args: rest,
      // Every command takes --json (operator.md): JSON even on a terminal.
      options: { json: { type: 'boolean' }, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    values = parsed.values as Record<string, string | boolean | undefined>;
    request = command.toRequest(values, parsed.positionals);
    remote = httpUrl(process.env, 'HERALD_ADMIN_URL', null);
    // In process (cli-child.ts): the child reads the whole configuration, this process need not.
    if (commandLine && !remote && !baselineCompilerOnly() && inProcess(process.env))
      return await rerunWithBaselineCompiler();
    config = (await import('./config.ts')).loadConfig();
  } catch (error) {
    process.stderr.write(`herald admin: ${(error as Error).message}\n${command.usage}\n`);
    return 2;
  }
  try {
    const holder = config.databaseUrl === null ? dataDirHolder(config.dataDir) : null;
    let transport: AdminTransport;
    if (remote || holder !== null) {
      const token = resolveInstanceSecrets(config).config.adminToken;
      if (!token) throw new ConfigError('HERALD_ADMIN_TOKEN', 'the admin token of the server', '');
      transport = httpTransport(remote ?? holderUrl(config, holder!), token);
    } else {
      transport = await inProcessTransport(config);
    }
    try {
      if (typeof request === 'function') {
        // Only a command that follows (webhooks tail) takes Ctrl-C as "stop"; others are killed by it.
        const interrupted = new AbortController();
        const stop = () => interrupted.abort();
        if (command.follows === true) for (const signal of STOP_SIGNALS) process.once(signal, stop);
        try {
          const output = await request((next) => transport.send(next), {
            write: (text) => process.stdout.write(text),
            signal: interrupted.signal,
            terminal: process.stdout.isTTY === true,
          });
          if (output !== undefined) process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
          return 0;
        } finally {
          for (const signal of STOP_SIGNALS) process.off(signal, stop);
        }
      }
      const result = await transport.send(request);
      if (result.status >= 400) {
        const message = parseError(result.body) ?? `HTTP ${result.status}`;
        process.stderr.write(`herald admin: ${message}\n`);
        return 1;
      }
      const body: unknown = JSON.parse(result.body);
      const json = values.json === true || process.stdout.isTTY !== true;
      if (command.print) process.stdout.write(await command.print(body, values));
      else process.stdout.write(json ? `${JSON.stringify(body, null, 2)}\n` : tableOf(body));
      return 0;
    } finally {
      await transport.close();
    }
  } catch (error) {
    process.stderr.write(`herald admin: ${(error as Error).message}\n`);
    return 1;
  }
}

function parseError(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: string; message?: string } };
    return parsed.error ? `${parsed.error.code}: ${parsed.error.message}` : null;
  } catch {
    return null;
  }
}

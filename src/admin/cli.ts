// `herald admin …`: the admin API's operations from the command line, JSON on stdout, a clear
// message and a non-zero exit on failure. Every command is one admin API request. It goes over
// HTTP to a running server when the embedded database is held by one (or HERALD_ADMIN_URL is set);
// otherwise the request is served in-process by the same routes, so both paths behave alike.
import { parseArgs } from 'node:util';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { dataDirHolder } from '../db/data-dir-lock.ts';
import { migrate } from '../db/migrate.ts';
import { resolveInstanceSecrets, secretsFilePath } from '../platform/instance-secrets.ts';
import { openRuntime } from '../runtime.ts';
import { adminCommands, type AdminRequest } from './cli-commands.ts';

const HELP = `Usage: herald admin <resource> <action> [options]

${adminCommands.map((c) => `  ${c.usage}`).join('\n')}

Output is JSON on stdout. Set HERALD_ADMIN_URL (and HERALD_ADMIN_TOKEN) to manage a remote server.
`;

async function sendOverHttp(baseUrl: string, token: string, request: AdminRequest) {
  const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/admin/v1${request.path}`, {
    method: request.method,
    headers: { authorization: `Bearer ${token}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    body: request.body ? JSON.stringify(request.body) : undefined,
  });
  return { status: response.status, body: await response.text() };
}

/** The local server, reachable even when it listens on every interface. */
function localServerUrl(config: Config): string {
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

async function sendInProcess(config: Config, request: AdminRequest) {
  const runtime = await openRuntime(config);
  if (runtime.adminTokenGenerated) {
    // operator.md: a generated admin token is printed; this command is the one that generated it.
    process.stderr.write(`herald admin: generated the admin token ${runtime.deps.config.adminToken} (kept in ${secretsFilePath(config.dataDir)})\n`);
  }
  try {
    await migrate(runtime.deps.database);
    const app = await buildApp({ ...runtime.deps, logger: runtime.deps.logger.child({}, { level: 'silent' }) });
    const response = await app.inject({
      method: request.method,
      url: `/admin/v1${request.path}`,
      headers: { authorization: `Bearer ${runtime.deps.config.adminToken}` },
      ...(request.body ? { payload: request.body } : {}),
    });
    await app.close();
    return { status: response.statusCode, body: response.body };
  } finally {
    await runtime.close();
  }
}

export async function runAdminCli(argv: string[]): Promise<number> {
  // operator.md names `herald admin outbox`: a resource given alone runs its only listing.
  const [resource, given, ...tail] = argv;
  const defaultsToList = resource === 'outbox' && (given === undefined || given.startsWith('--'));
  const action = defaultsToList ? 'list' : given;
  const rest = defaultsToList && given !== undefined ? [given, ...tail] : tail;
  const command = adminCommands.find((c) => c.resource === resource && c.action === action);
  if (!command) {
    (resource === undefined || resource === '--help' ? process.stdout : process.stderr).write(HELP);
    return resource === undefined || resource === '--help' ? 0 : 2;
  }
  let config: Config;
  let request: AdminRequest;
  try {
    const { values, positionals } = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
    request = command.toRequest(values as Record<string, string | boolean | undefined>, positionals);
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`herald admin: ${(error as Error).message}\n${command.usage}\n`);
    return 2;
  }
  try {
    const remote = process.env.HERALD_ADMIN_URL;
    const embeddedHeld = config.databaseUrl === null && dataDirHolder(config.dataDir) !== null;
    let result: { status: number; body: string };
    if (remote || embeddedHeld) {
      const url = remote ?? localServerUrl(config);
      const token = resolveInstanceSecrets(config).config.adminToken;
      if (!token) throw new ConfigError('HERALD_ADMIN_TOKEN', 'the admin token of the server', '');
      result = await sendOverHttp(url, token, request).catch((error: Error) => {
        throw new Error(`could not reach the admin API at ${url} (${error.message}); set PORT/HOST or HERALD_ADMIN_URL to the running server`);
      });
    } else {
      result = await sendInProcess(config, request);
    }
    if (result.status >= 400) {
      const message = parseError(result.body) ?? `HTTP ${result.status}`;
      process.stderr.write(`herald admin: ${message}\n`);
      return 1;
    }
    process.stdout.write(`${JSON.stringify(JSON.parse(result.body), null, 2)}\n`);
    return 0;
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

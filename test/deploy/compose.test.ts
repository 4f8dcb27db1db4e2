// compose.yaml, checked without a registry or a Docker daemon: its services, commands, variables,
// volumes, ports and health checks against the real CLI and configuration. The Dockerfile, and
// `docker compose config` where Docker is installed, are in docker.test.ts.
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { configVariables } from '../support/config-variables.ts';
import { cliCommands, operatorEnv, read } from './deploy-support.ts';

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const heraldServices = Object.entries(services).filter(([, s]) => s.build === '.');

/** compose's `${VAR:?message}` and `${VAR:-default}`, resolved against `env` as compose would. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    if (env[name] !== undefined && env[name] !== '') return env[name]!;
    if (kind === '?') throw new Error(`compose would stop: ${rest}`);
    return rest ?? '';
  });
}

describe('compose.yaml', () => {
  it('runs PostgreSQL, Redis, migrations once, two APIs, one worker and one SMTP listener', () => {
    const commands = heraldServices.map(([, s]) => s.command?.join(' ')).sort();
    expect(commands).toEqual(['api', 'api', 'migrate', 'smtp', 'worker']);
    for (const [name, s] of heraldServices) expect(cliCommands.has(s.command![0]!), name).toBe(true);
    expect(services.postgres?.image).toMatch(/^postgres:(1[5-9]|[2-9]\d)/); // PostgreSQL 15 or later
    expect(services.redis?.image).toMatch(/^redis:/);
  });

  it('gives every Herald process only variables the configuration reads, and a configuration that loads', () => {
    for (const [name, s] of heraldServices) {
      for (const variable of Object.keys(s.environment ?? {})) {
        expect(configVariables.has(variable), `${name}: ${variable}`).toBe(true);
      }
      const env = Object.fromEntries(
        Object.entries(s.environment!).map(([k, v]) => [k, interpolate(String(v), operatorEnv)]),
      );
      const config = loadConfig(env);
      expect(config.databaseUrl, name).toBe('postgres://herald:herald@postgres:5432/herald');
      expect(config.redisUrl, name).toBe('redis://redis:6379');
      expect(config.host, name).toBe('0.0.0.0');
    }
  });

  it('refuses to start without HERALD_SECRET and HERALD_ADMIN_TOKEN', () => {
    const env = services['api-1']!.environment!;
    expect(() => interpolate(env.HERALD_SECRET!, {})).toThrow(/set HERALD_SECRET/);
    expect(() => interpolate(env.HERALD_ADMIN_TOKEN!, {})).toThrow(/set HERALD_ADMIN_TOKEN/);
    // One character short of the limits: the configuration itself refuses them.
    const short = { HERALD_SECRET: 'x'.repeat(31), HERALD_ADMIN_TOKEN: 'y'.repeat(20) };
    const resolved = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(String(v), short)]));
    expect(() => loadConfig(resolved)).toThrow(/HERALD_SECRET/);
  });

  it('points DATABASE_URL at the postgres service with its own user, password and database', () => {
    const pg = services.postgres!.environment!;
    const url = new URL(services.worker!.environment!.DATABASE_URL!);
    expect([url.hostname, url.username, url.password, url.pathname.slice(1)]).toEqual([
      'postgres',
      pg.POSTGRES_USER,
      pg.POSTGRES_PASSWORD,
      pg.POSTGRES_DB,
    ]);
    expect(services.postgres!.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(Object.keys(compose.volumes).sort()).toEqual(['herald-data', 'postgres-data']);
  });

  it('gives every Herald process the same data dir volume (the blob store of received mail)', () => {
    for (const [name, s] of heraldServices) expect(s.volumes, name).toEqual(['herald-data:/data']);
  });

  it('starts the long-running processes after the migration, and checks them at /readyz on their PORT', () => {
    const readyz = read('src/platform/health.ts');
    expect(readyz).toContain("app.get('/readyz'");
    for (const [name, s] of heraldServices) {
      if (s.command![0] === 'migrate') {
        expect(s.healthcheck?.disable, name).toBe(true);
        expect(s.depends_on?.postgres?.condition).toBe('service_healthy');
        continue;
      }
      expect(s.depends_on?.migrate?.condition, name).toBe('service_completed_successfully');
      expect(s.depends_on?.postgres?.condition, name).toBe('service_healthy');
      expect(s.healthcheck?.test?.join(' '), name).toContain(`http://127.0.0.1:${s.environment!.PORT}/readyz`);
    }
    expect(services.postgres!.healthcheck?.test).toContain('pg_isready');
    expect(services.redis!.healthcheck?.test).toContain('ping');
  });

  it('publishes the HTTP port of each API, the SMTP listener on HERALD_SMTP_PORT and submission on 587 and 465', () => {
    const container = (s: Service) => s.ports!.map((p) => Number(p.split(':')[1]));
    expect(container(services['api-1']!)).toEqual([Number(services['api-1']!.environment!.PORT)]);
    expect(container(services['api-2']!)).toEqual([Number(services['api-2']!.environment!.PORT)]);
    expect(
      new Set([services['api-1']!.ports![0]!.split(':')[0], services['api-2']!.ports![0]!.split(':')[0]]).size,
    ).toBe(2);
    const submission = loadConfig({}).submission;
    expect(container(services.smtp!)).toEqual([
      Number(services.smtp!.environment!.HERALD_SMTP_PORT),
      submission.port,
      // Implicit TLS's default port, listening once a certificate is given.
      loadConfig({
        HERALD_TLS_CERT_FILE: 'test/support/tls/server.pem',
        HERALD_TLS_KEY_FILE: 'test/support/tls/server-key.pem',
      }).submission.tlsPort,
    ]);
    expect(services.smtp!.ports!.slice(1).map((p) => p.split(':')[0])).toEqual(['587', '465']);
    expect(services.worker!.ports).toBeUndefined();
  });
});

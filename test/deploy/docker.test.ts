// The Dockerfile and compose.yaml, checked without a registry or a Docker daemon: compose's services,
// commands, variables, volumes and health checks against the real CLI and configuration; the
// Dockerfile's stages, user and volume; and the image's file set run as the image would run it.
// `docker compose config` and `docker build --check` run only where Docker can (skipped otherwise).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { configVariables } from '../support/config-variables.ts';

const root = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const packageJson = JSON.parse(read('package.json')) as {
  bin: Record<string, string>;
  engines: { node: string };
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};

// ---- compose.yaml ----

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

/** The commands `herald` accepts, read from src/main.ts's dispatch. */
const cliCommands = new Set([...read('src/main.ts').matchAll(/case '([a-z]+)':/g)].map((m) => m[1]!));

/** compose's `${VAR:?message}` and `${VAR:-default}`, resolved against `env` as compose would. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    if (env[name] !== undefined && env[name] !== '') return env[name]!;
    if (kind === '?') throw new Error(`compose would stop: ${rest}`);
    return rest ?? '';
  });
}

const operatorEnv = { HERALD_SECRET: 'x'.repeat(40), HERALD_ADMIN_TOKEN: 'y'.repeat(20) };

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

// ---- Dockerfile ----

interface Instruction {
  keyword: string;
  args: string;
  stage: number;
}
/** Instructions with line continuations joined and comments dropped. */
const instructions: Instruction[] = (() => {
  const joined = read('Dockerfile').replace(/\\\n/g, ' ');
  let stage = -1;
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      if (keyword!.toUpperCase() === 'FROM') stage += 1;
      return { keyword: keyword!.toUpperCase(), args: rest.join(' '), stage };
    });
})();
const finalStage = Math.max(...instructions.map((i) => i.stage));
const inFinal = (keyword: string) => instructions.filter((i) => i.stage === finalStage && i.keyword === keyword);
const execForm = (keyword: string) => JSON.parse(inFinal(keyword).at(-1)!.args) as string[];
const finalEnv = Object.fromEntries(
  inFinal('ENV').flatMap((i) => [...i.args.matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
);

describe('Dockerfile', () => {
  it('builds in three stages on the Node.js major that package.json requires', () => {
    const froms = instructions.filter((i) => i.keyword === 'FROM').map((i) => i.args);
    expect(froms).toHaveLength(3);
    const major = packageJson.engines.node.match(/\d+/)![0];
    for (const from of froms) expect(from).toMatch(new RegExp(`^node:${major}[-.]`));
    expect(froms[1]).toMatch(/ AS web$/);
    expect(froms[2]).toMatch(/ AS runtime$/);
    // The runtime stage takes node_modules from the first stage and the built dashboard from the
    // second (the build script `npm install` runs), not from the build context.
    const copies = inFinal('COPY').map((i) => i.args);
    expect(copies).toContain('--from=deps /app/node_modules ./node_modules');
    expect(copies).toContain('--from=web /app/web/dist ./web/dist');
    const webStage = instructions.filter((i) => i.stage === 1 && i.keyword === 'RUN').map((i) => i.args);
    expect(webStage.at(-1)).toBe(packageJson.scripts.prepare);
    expect(read('.dockerignore').split('\n')).toContain('web/dist');
  });

  it('installs exactly the locked production dependencies', () => {
    const install = instructions.find((i) => i.keyword === 'RUN' && i.args.includes('npm ci'))!;
    expect(install.stage).toBe(0);
    expect(install.args).toContain('--omit=dev');
    expect(fs.existsSync(path.join(root, 'package-lock.json'))).toBe(true);
    // --ignore-scripts is safe only while no production dependency has an install script.
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }>;
    };
    const scripted = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript && !p.dev);
    expect(scripted.map(([name]) => name)).toEqual([]);
  });

  it('runs as a non-root user with the data directory as a volume it owns', () => {
    const user = inFinal('USER').at(-1)!.args;
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(execForm('VOLUME')).toEqual([finalEnv.HERALD_DATA_DIR]);
    expect(inFinal('RUN').some((i) => i.args.includes(`chown ${user}:${user} ${finalEnv.HERALD_DATA_DIR}`))).toBe(true);
    expect(configVariables.has('HERALD_DATA_DIR')).toBe(true);
    for (const variable of Object.keys(finalEnv).filter((v) => v !== 'NODE_ENV')) {
      expect(configVariables.has(variable), variable).toBe(true);
    }
  });

  it('starts the package bin with a command the CLI has, and checks /readyz on PORT', () => {
    expect(execForm('ENTRYPOINT')).toEqual(['node', packageJson.bin.herald]);
    const [command] = execForm('CMD');
    expect(cliCommands.has(command!)).toBe(true);
    const health = inFinal('HEALTHCHECK')[0]!.args;
    expect(health).toContain('process.env.PORT');
    expect(health).toContain('/readyz');
    expect(inFinal('EXPOSE')[0]!.args.split(' ').map(Number)).toEqual([
      Number(finalEnv.PORT),
      loadConfig({}).smtpPort,
      loadConfig({}).submission.port,
      2465,
    ]);
  });

  it('copies every file the program reads, and src/ imports only production dependencies', () => {
    const copied = inFinal('COPY')
      .filter((i) => !i.args.startsWith('--from'))
      .map((i) => i.args.split(' ')[0]!);
    for (const source of copied) expect(fs.existsSync(path.join(root, source)), source).toBe(true);
    expect(copied.sort()).toEqual(['bin', 'config', 'package.json', 'src']);
    const imported = new Set<string>();
    for (const file of fs.readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = read(path.join('src', file));
      const specifiers = text.matchAll(
        /(?:^|\n)\s*(?:import|export)\b[^;]*?from\s+'([^'.][^']*)'|\bimport\('([^'.][^']*)'\)/g,
      );
      for (const m of specifiers) {
        const specifier = m[1] ?? m[2]!;
        if (specifier.startsWith('node:')) continue;
        const parts = specifier.split('/');
        imported.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
    expect(imported.size).toBeGreaterThan(15);
    for (const name of imported) expect(packageJson.dependencies[name], name).toBeDefined();
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'data', '.git', '.env']) expect(ignored).toContain(entry);
    // What the first stage copies (the manifest, the lock, .npmrc) exists and is not ignored.
    const firstStage = instructions.filter((i) => i.stage === 0 && i.keyword === 'COPY');
    const sources = firstStage.flatMap((i) => i.args.split(' ').slice(0, -1));
    expect(sources).toEqual(['package.json', 'package-lock.json', '.npmrc']);
    for (const source of [...sources, ...copied]) {
      expect(fs.existsSync(path.join(root, source)), source).toBe(true);
      expect(ignored, source).not.toContain(source);
    }
  });

  // Starting PGlite and applying every migration takes seconds, more on a busy machine.
  it(
    "runs the image's file set as the image would: migrate into the data directory, then answer --help",
    {
      timeout: 120_000,
    },
    () => {
      // The runtime stage's tree, built by hand: the copied folders, and node_modules from this checkout.
      const image = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-image-'));
      try {
        for (const source of ['bin', 'config', 'src', 'package.json']) {
          fs.cpSync(path.join(root, source), path.join(image, source), { recursive: true });
        }
        fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(image, 'node_modules'));
        const env = {
          PATH: process.env.PATH,
          ...finalEnv,
          HERALD_DATA_DIR: path.join(image, 'data'),
          LOG_LEVEL: 'warn',
        };
        const [node, bin] = execForm('ENTRYPOINT');
        expect(node).toBe('node');
        const migrate = spawnSync(process.execPath, [bin!, 'migrate'], { cwd: image, env, encoding: 'utf8' });
        expect(migrate.stderr).toBe('');
        expect(migrate.status).toBe(0);
        expect(JSON.parse(migrate.stdout).applied.length).toBeGreaterThan(0);
        expect(fs.existsSync(path.join(image, 'data'))).toBe(true);
        const help = execFileSync(process.execPath, [bin!, '--help'], { cwd: image, env, encoding: 'utf8' });
        for (const command of cliCommands) expect(help).toContain(`  ${command} `);
      } finally {
        fs.rmSync(image, { recursive: true, force: true });
      }
    },
  );
});

// ---- Docker itself, where this machine has it ----

const dockerWorks = (args: string[]) => spawnSync('docker', args, { encoding: 'utf8', timeout: 20_000 }).status === 0;
const hasCompose = dockerWorks(['compose', 'version']);
const hasDaemon = dockerWorks(['info']);

describe('docker', () => {
  it.skipIf(!hasCompose)('docker compose config accepts compose.yaml (no network, nothing built)', () => {
    const result = spawnSync('docker', ['compose', '-f', 'compose.yaml', 'config', '--quiet'], {
      cwd: root,
      env: { ...process.env, ...operatorEnv },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.skipIf(!hasDaemon)('docker build --check finds no problem in the Dockerfile', () => {
    const result = spawnSync('docker', ['build', '--check', '.'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(result.status, result.stderr).toBe(0);
  });
});

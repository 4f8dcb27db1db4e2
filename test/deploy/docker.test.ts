// The Dockerfile, checked without a registry or a Docker daemon: its stages, user and volume, and the
// image's file set run as the image would run it. `docker compose config` and `docker build --check`
// run only where Docker can (skipped otherwise); compose.yaml's own checks are in compose.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { configVariables } from '../support/config-variables.ts';
import { cliCommands, operatorEnv, packageJson, read, root } from './deploy-support.ts';

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
    // --ignore-scripts is safe only while no production dependency has an install script. Herald's
    // own (the embedded template, "") is not needed there: new data directories are made in place.
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }>;
    };
    const scripted = Object.entries(lock.packages).filter(([name, p]) => name !== '' && p.hasInstallScript && !p.dev);
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

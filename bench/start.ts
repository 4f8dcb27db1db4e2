// How long `herald start` takes on the embedded database until /healthz answers 200: a first start
// (an empty data directory: copied from the migrated template `npm install` makes, or from its
// initialised one and migrated after a migration changed, or without any template initialised and
// migrated in place (src/db/embedded-template.ts); then secrets, the built-in DKIM key) and a later
// one (the same directory again), each beside a bare Node.js process that opens the same PGlite
// directory (an empty one for the start in place) and runs SELECT 1, measured in the same run.
// Median of ROUNDS alternating rounds, the load average printed beside the figures.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { EMBEDDED_SETTINGS, makeEmbeddedTemplate } from '../src/db/connect.ts';
import { TEMPLATES } from '../src/db/embedded-template.ts';
import { machineLine, verdict, writeSection } from './results.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REPO = path.resolve(import.meta.dirname, '..');
const TARGET_LATER = 1.5;
const TARGET_FIRST_MS = 5_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/** Milliseconds from spawning `herald start` on `dataDir` until /healthz answers 200; then it is stopped. */
async function heraldStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  // As `npm start` runs it.
  const child = spawn(process.execPath, ['bin/herald.js', 'start'], {
    cwd: REPO,
    env: { ...process.env, HERALD_DATA_DIR: dataDir, PORT: String(port), HERALD_SMTP_PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`herald start exited with ${child.exitCode}: ${stderr}`);
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (healthy) return performance.now() - started;
      if (performance.now() - started > 60_000) throw new Error(`no /healthz within 60 s: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited(child);
  }
}

/**
 * A fresh Node.js process that opens a PGlite directory, runs SELECT 1 and exits: milliseconds from
 * spawning it until SELECT 1 answered (the same end point as Herald's /healthz), and until it exited.
 * The exit is not part of the baseline: V8 first finishes compiling PGlite's WebAssembly with its
 * optimising tier, on a thread of its own, which took from 0.3 to 1.5 s on the machines measured.
 */
async function barePglite(pgliteDir: string, settings: string[] = []): Promise<{ answered: number; exited: number }> {
  const startParams =
    settings.length === 0 ? '' : `, { startParams: [...PGlite.defaultStartParams, ...${JSON.stringify(settings)}] }`;
  const script = `const { PGlite } = await import('@electric-sql/pglite');
const db = await PGlite.create(${JSON.stringify(pgliteDir)}${startParams});
await db.query('SELECT 1');
process.stdout.write('answered\\n');
await db.close();`;
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let answered: number | null = null;
  child.stdout!.on('data', (chunk: Buffer) => {
    if (answered === null && chunk.toString().includes('answered')) answered = performance.now() - started;
  });
  const code = await exited(child);
  if (code !== 0 || answered === null) throw new Error(`the bare PGlite process exited with ${code}`);
  return { answered, exited: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-start-'));
  const inPlace: number[] = [];
  const bareInitdb: number[] = [];
  const changed: number[] = [];
  const copied: number[] = [];
  const later: number[] = [];
  const bare: number[] = [];
  const bareAsHerald: number[] = [];
  const bareExits: number[] = [];
  const made = async () => {
    const migrated = await makeEmbeddedTemplate();
    if (migrated === null) throw new Error('the embedded templates could not be made');
    return migrated;
  };
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const dataDir = path.join(root, `round-${round}`);
      // Without any template (as where the cache cannot be written), beside PGlite's initdb alone.
      fs.rmSync(TEMPLATES, { recursive: true, force: true });
      inPlace.push(await heraldStart(dataDir));
      bareInitdb.push((await barePglite(path.join(root, `round-${round}-bare`))).answered);
      // A migration changed since the install: the initialised database is copied and migrated.
      fs.rmSync(await made(), { recursive: true });
      changed.push(await heraldStart(path.join(root, `round-${round}-changed`)));
      // As after `npm install`: the migrated template is copied (made again, untimed, before).
      await made();
      copied.push(await heraldStart(path.join(root, `round-${round}-copied`)));
      // The data directory is PGlite's own (src/db/connect.ts), with Herald's files beside its.
      const open = await barePglite(dataDir);
      bare.push(open.answered);
      bareExits.push(open.exited);
      bareAsHerald.push((await barePglite(dataDir, EMBEDDED_SETTINGS)).answered);
      later.push(await heraldStart(dataDir));
      console.info(
        `round ${round}: in place ${Math.round(inPlace.at(-1)!)} ms (bare initdb ${Math.round(bareInitdb.at(-1)!)}), after a changed migration ${Math.round(changed.at(-1)!)} ms, from the template ${Math.round(copied.at(-1)!)} ms, later ${Math.round(later.at(-1)!)} ms, bare ${Math.round(bare.at(-1)!)} ms (with Herald's settings ${Math.round(bareAsHerald.at(-1)!)})`,
      );
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  const ratio = median(later) / median(bare);
  const inPlaceRatio = median(inPlace) / median(bareInitdb);
  const ms = (values: number[]) => `${Math.round(median(values)).toLocaleString('en-US')}`;
  const row = (name: string, values: number[]) => `| ${name} | ${ms(values)} | ${values.map(Math.round).join(', ')} |`;
  const under = (values: number[]) =>
    `**${ms(values)} ms** (target: under ${TARGET_FIRST_MS.toLocaleString('en-US')} ms on a quiet machine, ${verdict(median(values) < TARGET_FIRST_MS)})`;
  const body = [
    '## Start (embedded database)',
    '',
    `\`npm exec -- node bench/start.ts\`: \`herald start\` as \`npm start\` runs it (\`node bin/herald.js start\`, with Node's compile cache in node_modules/.cache; HERALD_SMTP_PORT=0) on the embedded database, timed from spawning the process until \`GET /healthz\` answers 200 (polled every 10 ms), then stopped with SIGTERM. First starts, each on an empty data directory: as after \`npm install\`, copied from the migrated template it makes; after a migration changed since the install, copied from its template of PGlite's initialised database and migrated (the migrated template removed before); without any template (as where node_modules/.cache cannot be written), PGlite's database initialised and migrated in place. Later start: the first directory again. Baselines: a fresh Node.js process that opens the same PGlite directory and runs \`SELECT 1\`, timed from spawning it until \`SELECT 1\` answered (its exit afterwards is not counted: see below); for the start in place, the same on an empty directory (PGlite's initdb). Herald opens PGlite with settings of its own (src/db/connect.ts); the baseline keeps PGlite's, and the same open with Herald's settings is shown beside it. Median of ${ROUNDS} rounds (in place, bare initdb, changed, from the template, bare, bare with Herald's settings, later in each). ${machineLine()}.`,
    '',
    '| start | ms (median) | each round |',
    '|---|---:|---|',
    row('bare Node.js + PGlite open + SELECT 1 (baseline)', bare),
    row(
      `the same with Herald's settings (${EMBEDDED_SETTINGS.filter((s) => s !== '-c').join(', ')}; not the baseline)`,
      bareAsHerald,
    ),
    row('herald start, later (data directory exists)', later),
    row('herald start, first, from the template (as after `npm install`)', copied),
    row('herald start, first, after a migration changed (the initialised template migrated)', changed),
    row('bare Node.js + PGlite initdb in an empty directory + SELECT 1 (baseline of the next)', bareInitdb),
    row('herald start, first, without any template (initialised and migrated in place)', inPlace),
    '',
    `Later start: **${ratio.toFixed(1)} ×** the baseline (target: at most ${TARGET_LATER} ×, ${verdict(ratio <= TARGET_LATER)}). First start from the template: ${under(copied)}; after a migration changed: ${under(changed)}. Without any template, which only an install that could not write node_modules/.cache meets (no target): ${ms(inPlace)} ms, ${inPlaceRatio.toFixed(1)} × PGlite's initdb alone.`,
    '',
    `The bare process exited ${ms(bareExits)} ms after it was spawned (median), ${ms(bareExits.map((e, i) => e - bare[i]!))} ms after its answer: before it exits, V8 finishes compiling PGlite's WebAssembly with its optimising tier. Herald's start is timed to its answer, so the baseline is too.`,
  ].join('\n');
  console.info(body);
  writeSection('start', body);
}

await main();

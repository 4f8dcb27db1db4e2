// How long a `herald` command takes (issue 46): `herald --help` beside a bare `node -e 0`, and
// `herald admin outbox` (served in process on the embedded database: the data directory opened, the
// migrations checked, the admin routes answering) beside a bare script that opens the same PGlite
// directory and reads one row of the outbox, all in the same run. Median of ROUNDS alternating rounds,
// the load average printed beside the figures.
// Run: npm exec -- node bench/cli.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './measure.ts';
import { machineLine, verdict, writeSection } from './results.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const REPO = path.resolve(import.meta.dirname, '..');
const TARGET = 1.5;
const BARE_READ = `import { PGlite } from '@electric-sql/pglite';
const db = await PGlite.create(process.argv[1]);
await db.query('SELECT id FROM outbox ORDER BY id DESC LIMIT 1');
await db.close();`;

/** Milliseconds of one run of node with `args`, from spawn to exit; it must exit 0. */
function timed(args: string[], env: NodeJS.ProcessEnv = {}): number {
  const started = performance.now();
  execFileSync(process.execPath, args, { cwd: REPO, env: { ...process.env, ...env }, stdio: 'ignore' });
  return performance.now() - started;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-cli-'));
try {
  const env = { HERALD_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  // The first command makes the data directory (migrations, secrets); it is not measured.
  timed(['bin/herald.js', 'admin', 'outbox'], env);
  const figures = { help: [] as number[], bareNode: [] as number[], outbox: [] as number[], bareRead: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    figures.bareNode.push(timed(['-e', '0']));
    figures.help.push(timed(['bin/herald.js', '--help']));
    figures.bareRead.push(timed(['--input-type=module', '-e', BARE_READ, dataDir]));
    figures.outbox.push(timed(['bin/herald.js', 'admin', 'outbox'], env));
  }
  const ms = Object.fromEntries(Object.entries(figures).map(([name, values]) => [name, median(values)])) as Record<
    keyof typeof figures,
    number
  >;
  const helpRatio = ms.help / ms.bareNode;
  const outboxRatio = ms.outbox / ms.bareRead;
  const body = [
    '## CLI',
    '',
    `\`npm exec -- node bench/cli.ts\`: each command run as a new process (\`${path.basename(process.execPath)} bin/herald.js …\`, Node's compile cache warm), timed from spawn to exit; median of ${ROUNDS} alternating rounds. \`herald admin outbox\` runs in process on an embedded data directory made by an earlier run (no server holds it): the directory opened, the migrations checked, the admin routes alone answering. ${machineLine()}; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')}.`,
    '',
    '| command | ms (median) | baseline | baseline ms | ratio |',
    '|---|---:|---|---:|---:|',
    `| \`herald --help\` | ${Math.round(ms.help)} | \`node -e 0\` | ${Math.round(ms.bareNode)} | ${helpRatio.toFixed(2)} × |`,
    `| \`herald admin outbox\` | ${Math.round(ms.outbox)} | open the same PGlite directory, read one outbox row | ${Math.round(ms.bareRead)} | ${outboxRatio.toFixed(2)} × |`,
    '',
    `Targets: at most ${TARGET} × each: \`--help\` ${verdict(helpRatio <= TARGET)}, \`admin outbox\` ${verdict(outboxRatio <= TARGET)}.`,
  ].join('\n');
  console.log(body);
  writeSection('cli', body);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// The dashboard's first-visit JavaScript per route, gzipped, from the production build's manifest
// (scripts/web-size.ts, the figures `npm run check` holds to the budget), beside a bare baseline
// built in the same run: React and ReactDOM rendering one element, with the same Vite and settings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { BUDGET_BYTES, kb, routeSizes } from '../scripts/web-size.ts';
import { machineLine, verdict, writeSection } from './results.ts';

const root = path.join(import.meta.dirname, '..');

/** The dashboard, built as `npm install` builds it (forced, and timed). */
function buildDashboard(): number {
  const started = performance.now();
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-web.js'), '--force'], { cwd: root, stdio: 'pipe' });
  return performance.now() - started;
}

/** React + ReactDOM and nothing else, through the same Vite: what any React page weighs. */
async function bareReactGzip(): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-react-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><div id="root"></div><script type="module" src="/main.js"></script>',
    );
    fs.writeFileSync(
      path.join(dir, 'main.js'),
      "import { createElement } from 'react';\nimport { createRoot } from 'react-dom/client';\n" +
        "createRoot(document.getElementById('root')).render(createElement('p', null, 'hello'));\n",
    );
    process.env.NODE_ENV = 'production';
    const { build } = await import('vite');
    await build({
      root: dir,
      configFile: false,
      logLevel: 'warn',
      mode: 'production',
      resolve: {
        alias: {
          react: path.join(root, 'node_modules', 'react'),
          'react-dom': path.join(root, 'node_modules', 'react-dom'),
        },
      },
      build: { outDir: path.join(dir, 'dist'), target: 'es2022' },
    });
    const assets = path.join(dir, 'dist', 'assets');
    return fs
      .readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(assets, f)), { level: 9 }).length, 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const buildMs = buildDashboard();
const sizes = routeSizes();
const bare = await bareReactGzip();
const largest = Math.max(...sizes.map((s) => s.gzipBytes));
const body = [
  '## Dashboard bundle',
  '',
  `\`npm exec -- node bench/dashboard.ts\`: the dashboard's production build (\`scripts/build-web.js\`, as \`npm install\` runs it; ${(buildMs / 1000).toFixed(1)} s this run), and for each route the JavaScript a first visit downloads (the entry and its static imports, plus the route's lazy chunk and its imports), gzipped at level 9, from Vite's manifest. Baseline: React and ReactDOM rendering one element, built by the same Vite in the same run. ${machineLine()}.`,
  '',
  '| route | JS gzipped | files | × bare React |',
  '|---|---:|---:|---:|',
  `| bare React + ReactDOM (baseline) | ${kb(bare)} | 1 | 1.0 |`,
  ...sizes.map((s) => `| ${s.route} | ${kb(s.gzipBytes)} | ${s.files} | ${(s.gzipBytes / bare).toFixed(1)} |`),
  '',
  `Largest first visit: **${kb(largest)}** (budget ${kb(BUDGET_BYTES)}, ${verdict(largest <= BUDGET_BYTES)}).`,
].join('\n');
console.info(body);
writeSection('dashboard', body);

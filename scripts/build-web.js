// Builds the dashboard (web/) into web/dist with Vite: run by `npm install` (prepare), `npm run
// web:build` and the size check. Skipped when the sources are unchanged since the last build (a stamp
// of their hash in web/dist), and, with a note, where Vite is not installed (an install that omits
// devDependencies): Herald then serves a page saying how to build. Plain JavaScript, so it runs on
// whatever Node.js npm starts.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.join(import.meta.dirname, '..');
const web = path.join(root, 'web');
const dist = path.join(web, 'dist');
const stampFile = path.join(dist, '.build-stamp');

function sourcesHash() {
  const hash = createHash('sha256');
  const files = ['scripts/build-web.js', 'web/index.html', 'web/vite.config.ts', 'package-lock.json'];
  for (const dir of ['web/src', 'web/public']) {
    const entries = fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' });
    for (const entry of entries.sort()) {
      const file = path.join(dir, entry);
      if (fs.statSync(path.join(root, file)).isFile()) files.push(file);
    }
  }
  for (const file of files) {
    hash.update(file);
    hash.update(fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file)) : '');
  }
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
const stamp = sourcesHash();
const fresh = () => fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp;
if (!force && fresh()) {
  process.stdout.write('web/dist is up to date\n');
  process.exit(0);
}

// React and Vite read NODE_ENV: a build is for production whatever the caller's (a test runner sets 'test').
process.env.NODE_ENV = 'production';
let vite;
try {
  vite = await import('vite');
} catch {
  process.stdout.write('web: Vite is not installed (devDependencies omitted); the dashboard is not built.\n');
  process.exit(0);
}

// One build at a time (test workers may ask together); a lock left by a killed build expires.
const lockFile = path.join(web, '.build-lock');
const deadline = Date.now() + 120_000;
for (;;) {
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
    break;
  } catch {
    const age = Date.now() - (fs.statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > 120_000 || Date.now() > deadline) fs.rmSync(lockFile, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
try {
  if (force || !fresh()) {
    const started = Date.now();
    await vite.build({ configFile: path.join(web, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
    precompress(path.join(dist, 'assets'));
    fs.writeFileSync(stampFile, stamp);
    process.stdout.write(`web: built web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
} finally {
  fs.rmSync(lockFile, { force: true });
}

/** Brotli and gzip copies beside each text asset, served by @fastify/static's preCompressed. */
function precompress(dir) {
  for (const name of fs.readdirSync(dir)) {
    if (!/\.(js|css|svg|json)$/.test(name)) continue;
    const file = path.join(dir, name);
    const body = fs.readFileSync(file);
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  }
}

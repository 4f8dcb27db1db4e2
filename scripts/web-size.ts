// The dashboard's JavaScript per route, gzipped, from Vite's manifest (web/dist/.vite/manifest.json):
// what a first visit to each route downloads (the entry, its static imports, the route's own chunk and
// its imports). `npm run check` runs it and fails when any route passes the budget of the design
// brief (250 KB); bench/dashboard.ts writes the same figures into bench/RESULTS.md.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export const BUDGET_BYTES = 250 * 1024;
const dist = path.join(import.meta.dirname, '..', 'web', 'dist');

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export interface RouteSize {
  /** the page module (web/src/pages/…) or "entry" */
  route: string;
  files: number;
  gzipBytes: number;
}

function closure(manifest: Record<string, Chunk>, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const imported of manifest[key]!.imports ?? []) closure(manifest, imported, into);
  return into;
}

const gzipSizes = new Map<string, number>();
function gzipSize(file: string): number {
  if (!gzipSizes.has(file))
    gzipSizes.set(file, zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
  return gzipSizes.get(file)!;
}

function jsBytes(manifest: Record<string, Chunk>, keys: Iterable<string>): { files: number; gzipBytes: number } {
  const files = [...new Set([...keys].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js')))];
  return { files: files.length, gzipBytes: files.reduce((n, f) => n + gzipSize(f), 0) };
}

/** The entry alone, then entry + each lazily loaded page chunk (the first visit to that route). */
export function routeSizes(): RouteSize[] {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error('web/dist/.vite/manifest.json is missing: run `npm run web:build`');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Chunk>;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const entry = closure(manifest, entryKey);
  const sizes: RouteSize[] = [{ route: 'entry (shell, sign-in, Overview)', ...jsBytes(manifest, entry) }];
  const lazy = Object.keys(manifest).filter((k) => manifest[k]!.isDynamicEntry);
  for (const key of lazy.sort()) {
    const keys = closure(manifest, key, new Set(entry));
    sizes.push({ route: manifest[key]!.src?.replace(/^src\//, '') ?? key, ...jsBytes(manifest, keys) });
  }
  return sizes;
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (import.meta.main) {
  const sizes = routeSizes();
  let over = false;
  for (const size of sizes) {
    const mark = size.gzipBytes > BUDGET_BYTES ? '  OVER BUDGET' : '';
    over ||= mark !== '';
    process.stdout.write(
      `${size.route.padEnd(36)} ${kb(size.gzipBytes).padStart(9)} gzip (${size.files} files)${mark}\n`,
    );
  }
  if (over) {
    process.stderr.write(`web: a route's first-visit JavaScript passes the budget of ${kb(BUDGET_BYTES)} gzipped\n`);
    process.exit(1);
  }
  process.stdout.write(`web: every route within ${kb(BUDGET_BYTES)} gzipped\n`);
}

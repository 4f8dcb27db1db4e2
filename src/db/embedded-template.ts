// A new embedded data directory starts as a copy of a migrated, empty one: PGlite's initdb and the
// migrations take seconds, a copy tens of milliseconds (bench/RESULTS.md, start). The template is
// made once per PGlite version, set of migrations and UTC month (0027 names the first partitions
// after the month it runs in, so a copy is what migrating that month makes), in node_modules/.cache
// beside Node's compile cache. Where that folder cannot be written, the directory is made in place.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const NODE_MODULES = path.join(import.meta.dirname, '../../node_modules');
/** Where the templates are kept (the start benchmark removes them to time a first start without one). */
export const TEMPLATES = path.join(NODE_MODULES, '.cache/herald-embedded');
const MAKING = '.making-';

/** The template's name: what its contents depend on. Null without PGlite's package file to read. */
function templateKey(migrations: { name: string; sql: string }[], now: Date): string | null {
  let pglite: string;
  try {
    pglite = fs.readFileSync(path.join(NODE_MODULES, '@electric-sql/pglite/package.json'), 'utf8');
  } catch {
    return null;
  }
  const hash = createHash('sha256').update(JSON.parse(pglite).version as string);
  for (const m of migrations) hash.update(`\0${m.name}\0${m.sql}`);
  return `${now.toISOString().slice(0, 7)}-${hash.digest('hex').slice(0, 16)}`;
}

/** Templates of other versions or months are not used again; one a day old is no longer being copied. */
function pruneTemplates(root: string, kept: string): void {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of fs.readdirSync(root)) {
    const folder = path.join(root, name);
    if (name !== kept && fs.statSync(folder).mtimeMs < dayAgo) fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The template's folder, made by `make` (PGlite opened there, migrated, closed) when missing; null where it cannot be. */
async function templateFolder(root: string, key: string, make: (dir: string) => Promise<void>): Promise<string | null> {
  const folder = path.join(root, key);
  if (fs.existsSync(path.join(folder, 'PG_VERSION'))) return folder;
  let making: string | null = null;
  try {
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    making = fs.mkdtempSync(path.join(root, `${key}${MAKING}`));
    await make(making);
    fs.renameSync(making, folder);
    making = null;
    pruneTemplates(root, key);
  } catch {
    // Another process may have made it meanwhile (its rename won); else no template.
  } finally {
    if (making !== null) fs.rmSync(making, { recursive: true, force: true });
  }
  return fs.existsSync(path.join(folder, 'PG_VERSION')) ? folder : null;
}

/**
 * When PGlite has made no database in `dataDir` yet, copies the template there (made first with
 * `make` if missing) and answers the migrations it holds; else, or without a template, null.
 */
export async function seedFromTemplate(
  dataDir: string,
  migrations: { name: string; sql: string }[],
  make: (dir: string) => Promise<void>,
  { now = new Date(), root = TEMPLATES }: { now?: Date; root?: string } = {},
): Promise<string[] | null> {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return null;
  const key = templateKey(migrations, now);
  const folder = key === null ? null : await templateFolder(root, key, make);
  if (folder === null) return null;
  fs.cpSync(folder, dataDir, { recursive: true });
  return migrations.map((m) => m.name);
}

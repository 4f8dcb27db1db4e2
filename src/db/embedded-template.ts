// A new embedded data directory starts as a copy of a migrated, empty one: PGlite's initdb and the
// migrations take seconds, a copy tens of milliseconds (bench/RESULTS.md, start). `npm install` makes
// the template (scripts/embedded-template.js), one per PGlite version and set of migrations, in
// node_modules/.cache beside Node's compile cache. A copy made in a later month is a database
// migrated then and started later (0027 names the first partitions after the month it ran in), which
// the retention chore keeps as for any install. Without a template (migrations changed since the
// install, no writable cache) a new directory is made in place: a start never pays for making one.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const NODE_MODULES = path.join(import.meta.dirname, '../../node_modules');
/** Where the templates are kept (the start benchmark removes them to time a first start without one). */
export const TEMPLATES = path.join(NODE_MODULES, '.cache/herald-embedded');
const MAKING = '.making-';

type Migrations = { name: string; sql: string }[];
type Where = { root?: string };

/** The template's name: what its contents depend on. Null without PGlite's package file to read. */
function templateKey(migrations: Migrations): string | null {
  let pglite: string;
  try {
    pglite = fs.readFileSync(path.join(NODE_MODULES, '@electric-sql/pglite/package.json'), 'utf8');
  } catch {
    return null;
  }
  const hash = createHash('sha256').update(JSON.parse(pglite).version as string);
  for (const m of migrations) hash.update(`\0${m.name}\0${m.sql}`);
  return hash.digest('hex').slice(0, 16);
}

/** Templates of other versions are not used again; one a day old is no longer being copied. */
function pruneTemplates(root: string, kept: string): void {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of fs.readdirSync(root)) {
    const folder = path.join(root, name);
    if (name !== kept && fs.statSync(folder).mtimeMs < dayAgo) fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The template's folder for these migrations, if it has been made. */
function templateFolder(migrations: Migrations, { root = TEMPLATES }: Where): string | null {
  const key = templateKey(migrations);
  const folder = key === null ? null : path.join(root, key);
  return folder !== null && fs.existsSync(path.join(folder, 'PG_VERSION')) ? folder : null;
}

/**
 * Makes the template for these migrations with `make` (PGlite opened in the folder given,
 * migrated, closed) unless it exists; answers its folder, or null where it cannot be made.
 */
export async function makeTemplate(
  migrations: Migrations,
  make: (dir: string) => Promise<void>,
  { root = TEMPLATES }: Where = {},
): Promise<string | null> {
  const key = templateKey(migrations);
  if (key === null) return null;
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
 * When PGlite has made no database in `dataDir` yet and the template is there, copies it into
 * `dataDir` and answers the migrations it holds; else null.
 */
export function seedFromTemplate(dataDir: string, migrations: Migrations, where: Where = {}): string[] | null {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return null;
  const folder = templateFolder(migrations, where);
  if (folder === null) return null;
  fs.cpSync(folder, dataDir, { recursive: true });
  return migrations.map((m) => m.name);
}

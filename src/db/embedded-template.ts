// A new embedded data directory starts as a copy of an empty one: PGlite's initdb and the
// migrations take seconds, a copy tens of milliseconds (bench/RESULTS.md, start). `npm install` makes
// two templates (scripts/embedded-template.js) in node_modules/.cache beside Node's compile cache:
// PGlite's initialised database alone, one per PGlite version, and that database migrated, one per
// PGlite version and set of migrations. A new directory copies the template holding the longest
// prefix of the migrations and applies the rest in place: after a migration is added or changed
// since the install it still skips initdb. A copy made in a later month is a database migrated then
// and started later (0027 names the first partitions after the month it ran in), which the retention
// chore keeps as for any install. Without any template (no writable cache) a new directory is made in
// place: a start never pays for making one.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const NODE_MODULES = path.join(import.meta.dirname, '../../node_modules');
/** Where the templates are kept (the start benchmark removes them to time a first start without one). */
export const TEMPLATES = path.join(NODE_MODULES, '.cache/herald-embedded');
const MAKING = '.making-';

type Migrations = { name: string; sql: string }[];
type Where = { root?: string };

/**
 * Makes a template in `dir` (empty): PGlite opened there (initdb, or the copy put there before),
 * then every migration applied when `migrate`, then closed.
 */
type MakeTemplate = (dir: string, options: { migrate: boolean }) => Promise<void>;

/**
 * The templates' names for each prefix of the migrations, none first (PGlite's initialised database
 * alone): what each one's contents depend on. Null without PGlite's package file to read.
 */
function prefixKeys(migrations: Migrations): string[] | null {
  let pglite: string;
  try {
    pglite = fs.readFileSync(path.join(NODE_MODULES, '@electric-sql/pglite/package.json'), 'utf8');
  } catch {
    return null;
  }
  const hash = createHash('sha256').update(JSON.parse(pglite).version as string);
  const keys = [hash.copy().digest('hex').slice(0, 16)];
  for (const m of migrations) keys.push(hash.update(`\0${m.name}\0${m.sql}`).copy().digest('hex').slice(0, 16));
  return keys;
}

const isMade = (folder: string) => fs.existsSync(path.join(folder, 'PG_VERSION'));

/** Templates no longer made are not used again; one a day old is no longer being copied. */
function pruneTemplates(root: string, kept: readonly string[]): void {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of fs.readdirSync(root)) {
    const folder = path.join(root, name);
    if (!kept.includes(name) && fs.statSync(folder).mtimeMs < dayAgo)
      fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The template named `key`, made by `make` in a folder of its own and renamed when done, unless it exists. */
async function makeOne(root: string, key: string, make: (dir: string) => Promise<void>): Promise<string | null> {
  const folder = path.join(root, key);
  if (isMade(folder)) return folder;
  let making: string | null = null;
  try {
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    making = fs.mkdtempSync(path.join(root, `${key}${MAKING}`));
    await make(making);
    fs.renameSync(making, folder);
    making = null;
  } catch {
    // Another process may have made it meanwhile (its rename won); else no template.
  } finally {
    if (making !== null) fs.rmSync(making, { recursive: true, force: true });
  }
  return isMade(folder) ? folder : null;
}

/**
 * Makes the two templates for these migrations with `make` unless they exist: PGlite's initialised
 * database, then a copy of it migrated. Answers the migrated one's folder, or null where it cannot
 * be made.
 */
export async function makeTemplate(
  migrations: Migrations,
  make: MakeTemplate,
  { root = TEMPLATES }: Where = {},
): Promise<string | null> {
  const keys = prefixKeys(migrations);
  if (keys === null) return null;
  const initialised = await makeOne(root, keys[0]!, (dir) => make(dir, { migrate: false }));
  const migrated = await makeOne(root, keys.at(-1)!, async (dir) => {
    if (initialised !== null) fs.cpSync(initialised, dir, { recursive: true });
    await make(dir, { migrate: true });
  });
  if (migrated !== null) pruneTemplates(root, [keys[0]!, keys.at(-1)!]);
  return migrated;
}

/**
 * When PGlite has made no database in `dataDir` yet and a template holds a prefix of these
 * migrations, copies the longest such into `dataDir` and answers the migrations it holds (the rest
 * are applied by `migrate`); else null.
 */
export function seedFromTemplate(
  dataDir: string,
  migrations: Migrations,
  { root = TEMPLATES }: Where = {},
): string[] | null {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return null;
  const keys = prefixKeys(migrations) ?? [];
  for (let held = keys.length - 1; held >= 0; held -= 1) {
    const folder = path.join(root, keys[held]!);
    if (!isMade(folder)) continue;
    fs.cpSync(folder, dataDir, { recursive: true });
    return migrations.slice(0, held).map((m) => m.name);
  }
  return null;
}

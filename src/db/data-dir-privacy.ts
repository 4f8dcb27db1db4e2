// The embedded data directory holds every team's data and secrets.json: owner-only (0700 folders,
// 0600 files) whatever the umask the process was started with. PGlite writes its initial files from
// a bundled archive with explicit 0666 modes, so a tightened umask alone is not enough: the tree is
// also made owner-only before the database opens (an older directory, reported) and after (what
// PGlite has just written).
import fs from 'node:fs';
import path from 'node:path';

const GROUP_OR_OTHER = 0o077;

/**
 * Makes the process create owner-only files from now on (umask 077 added to the current one).
 * Embedded mode only: the process then owns a data directory nobody else may read.
 */
export function tightenUmask(): void {
  const previous = process.umask(GROUP_OR_OTHER);
  process.umask(previous | GROUP_OR_OTHER);
}

/** Creates the data directory owner-only if missing. */
export function ensurePrivateDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

/**
 * Every folder (the directory itself included) and file under `dataDir` with group or other
 * permissions is set to 0700 or 0600; returns how many were changed. Symbolic links are left alone.
 * The blob store (`blobs/`, received mail) writes its own folders 0700 and files 0600 and may hold
 * many files: only its folder is checked, not walked at every start.
 */
export function makeDataDirPrivate(dataDir: string): number {
  let changed = 0;
  const blobs = path.join(dataDir, 'blobs');
  const pending = [dataDir];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    changed += restrict(dir, true);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // removed meanwhile
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && full === blobs) changed += restrict(full, true);
      else if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) changed += restrict(full, false);
    }
  }
  return changed;
}

function restrict(file: string, isDirectory: boolean): number {
  try {
    if ((fs.lstatSync(file).mode & GROUP_OR_OTHER) === 0) return 0;
    fs.chmodSync(file, isDirectory ? 0o700 : 0o600);
    return 1;
  } catch {
    return 0; // a file PostgreSQL removed between the listing and the check
  }
}

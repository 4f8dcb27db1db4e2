// PGlite does not lock its data directory, and two processes writing one directory corrupt it.
// This lock file refuses a second process; a lock left by a process that died (kill -9) is stale
// and is taken over.
import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is already open in process ${pid}. ` +
        'Stop that process first, or set DATABASE_URL to share one PostgreSQL server between processes.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockFilePath(dataDir: string): string {
  return path.join(dataDir, 'herald.lock');
}

/** Returns the pid holding the data directory, or null when nobody does. */
export function dataDirHolder(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(lockFilePath(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the lock or throws DataDirLockedError; returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFilePath(dataDir);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = dataDirHolder(dataDir);
      if (holder !== null) throw new DataDirLockedError(dataDir, holder);
      discardStaleLock(file);
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

/**
 * Two processes may find the same stale lock at once. Each moves it aside atomically (rename) and
 * deletes it only if it is still the dead process's; a fresh lock that another process wrote in the
 * meantime is put back (link fails rather than overwrite), and the next attempt sees its holder.
 */
function discardStaleLock(file: string): void {
  const aside = `${file}.${process.pid}.${Date.now()}`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return; // someone else moved it; try again
  }
  const pid = Number(fs.readFileSync(aside, 'utf8').trim());
  const fresh = Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid);
  if (fresh) {
    try {
      fs.linkSync(aside, file);
    } catch {
      // a third process holds the lock now; the next attempt reports it
    }
  }
  fs.rmSync(aside, { force: true });
}

// The blob store in the data dir: `${HERALD_DATA_DIR}/blobs/<key>`. A put writes the file, flushes it
// (datasync) and flushes its directory, so a row committed after put() never names bytes a crash
// lost. A new key is written in place: no row names it yet, so nobody reads it half-written (a crash
// mid-write leaves a file no committed row names). A key that exists is replaced through a temporary
// file renamed over it, so its readers never see half a file. Directories are 0700 and files 0600,
// like the rest of the data dir. Every process that serves the same database must see the same
// directory (one machine, or a shared volume).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { InvalidBlobKeyError, type BlobStore, type ByteRange } from './types.ts';

const SEGMENT = /^[a-z0-9._-]+$/;
// Temporary files end in upper case, which no key may: list() never answers them.
const TEMP_SUFFIX = '.TMP';

const isSegment = (name: string) => SEGMENT.test(name) && name !== '.' && name !== '..';

function segmentsOf(key: string): string[] {
  const segments = key.split('/');
  if (!segments.every(isSegment)) throw new InvalidBlobKeyError(`not a blob key: ${JSON.stringify(key)}`);
  return segments;
}

/** A key, or a prefix (a key followed by `/`): its path under the root. */
function pathUnder(root: string, keyOrPrefix: string): string {
  const key = keyOrPrefix.endsWith('/') ? keyOrPrefix.slice(0, -1) : keyOrPrefix;
  return path.join(root, ...segmentsOf(key));
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? '';
const missing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes(codeOf(error));

/** A rename or a new entry survives a crash only once its directory is flushed too. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems cannot flush a directory; their renames are as durable as they get.
    if (!['EINVAL', 'EISDIR', 'EPERM'].includes(codeOf(error))) throw error;
  } finally {
    await handle.close();
  }
}

async function writeFlushed(file: string, flags: string, bytes: Uint8Array): Promise<void> {
  const handle = await fs.open(file, flags, 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** An existing key: the new bytes in a temporary file beside it, renamed over it. */
async function replaceFile(file: string, bytes: Uint8Array): Promise<void> {
  const temp = `${file}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
  try {
    await writeFlushed(temp, 'wx', bytes);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** `range.length` bytes from `range.offset`; a file shorter than that is damaged, not missing. */
async function readRange(file: string, range: ByteRange): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const bytes = Buffer.allocUnsafe(range.length);
    const { bytesRead } = await handle.read(bytes, 0, range.length, range.offset);
    if (bytesRead !== range.length)
      throw new Error(`${file} holds ${bytesRead} of the ${range.length} bytes at ${range.offset}`);
    return bytes;
  } finally {
    await handle.close();
  }
}

export function createFileBlobStore(dataDir: string): BlobStore {
  const root = path.join(dataDir, 'blobs');
  // Directories this process made or found: most puts go to an hour's directory that already exists.
  const known = new Set<string>();

  /** mkdir -p with 0700; the directories it made are flushed into their parents. */
  async function ensureDirectory(dir: string): Promise<void> {
    if (known.has(dir)) return;
    const first = await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    if (first !== undefined)
      for (let parent = path.dirname(dir); ; parent = path.dirname(parent)) {
        await syncDirectory(parent);
        if (parent === path.dirname(first) || parent === path.dirname(parent)) break;
      }
    known.add(dir);
  }

  async function write(file: string, bytes: Uint8Array): Promise<void> {
    try {
      await writeFlushed(file, 'wx', bytes);
    } catch (error) {
      if (codeOf(error) === 'EEXIST') return replaceFile(file, bytes);
      if (!missing(error)) throw error;
      // The directory went (another process's retention sweep): made again, once.
      known.delete(path.dirname(file));
      await ensureDirectory(path.dirname(file));
      await writeFlushed(file, 'wx', bytes);
    }
  }

  return {
    async put(key, bytes) {
      const file = pathUnder(root, key);
      await ensureDirectory(path.dirname(file));
      await write(file, bytes);
      await syncDirectory(path.dirname(file));
    },

    async get(key, range) {
      try {
        if (range === undefined) return await fs.readFile(pathUnder(root, key));
        return await readRange(pathUnder(root, key), range);
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },

    async remove(keyOrPrefix) {
      const target = pathUnder(root, keyOrPrefix);
      await fs.rm(target, { recursive: keyOrPrefix.endsWith('/'), force: true });
      for (const dir of known) if (dir === target || dir.startsWith(`${target}${path.sep}`)) known.delete(dir);
    },

    async list(prefix) {
      if (!prefix.endsWith('/')) throw new InvalidBlobKeyError(`not a prefix: ${JSON.stringify(prefix)}`);
      try {
        return (await fs.readdir(pathUnder(root, prefix))).filter(isSegment).sort();
      } catch (error) {
        if (missing(error)) return [];
        throw error;
      }
    },

    close() {},
  };
}

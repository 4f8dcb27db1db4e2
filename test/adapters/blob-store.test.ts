// The data dir's blob store on a real temporary directory: the contract every store keeps
// (blob-store-contract.ts), and what is the file store's own: where the bytes are, private modes, a
// directory removed by another process, no temporary file left beside what was put, no path escape.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileBlobStore, InvalidBlobKeyError, type BlobStore } from '../../src/adapters/blob-store/index.ts';
import { blobStoreContract } from './blob-store-contract.ts';

let dataDir: string;
let blobs: BlobStore;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-blobs-'));
  blobs = createFileBlobStore(dataDir);
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Every file under the store's root, relative to it. */
const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();

blobStoreContract('files', () => blobs);

describe('the file blob store', () => {
  it('gives back exactly the bytes put, under HERALD_DATA_DIR/blobs, and null for a missing key', async () => {
    const bytes = Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a, 0x2e, 0x0d, 0x0a, 0x80, 0]);
    await blobs.put('inbound/2026-11-25/inmsg_a/original.eml', bytes);
    const back = await blobs.get('inbound/2026-11-25/inmsg_a/original.eml');
    expect(back?.equals(bytes)).toBe(true);
    expect(
      fs.readFileSync(path.join(dataDir, 'blobs', 'inbound', '2026-11-25', 'inmsg_a', 'original.eml')).equals(bytes),
    ).toBe(true);
    expect(await blobs.get('inbound/2026-11-25/inmsg_a/attachment-0')).toBeNull();
    expect(await blobs.get('inbound/nothing/here')).toBeNull();
    // A key below a file is missing too, not an error.
    expect(await blobs.get('inbound/2026-11-25/inmsg_a/original.eml/more')).toBeNull();
  });

  it('writes again into a directory another process removed since', async () => {
    await blobs.put('swept/day/one', Buffer.from('1'));
    // Another process's store (a worker's retention sweep) removes the directory this one knows.
    await createFileBlobStore(dataDir).remove('swept/day/');
    await blobs.put('swept/day/two', Buffer.from('2'));
    expect(await blobs.list('swept/day/')).toEqual(['two']);
  });

  it('keeps its directories 0700 and its files 0600', async () => {
    await blobs.put('modes/inner/file', Buffer.from('secret'));
    const mode = (p: string) => fs.statSync(path.join(dataDir, 'blobs', p)).mode & 0o777;
    expect(mode('.')).toBe(0o700);
    expect(mode('modes')).toBe(0o700);
    expect(mode('modes/inner')).toBe(0o700);
    expect(mode('modes/inner/file')).toBe(0o600);
  });

  it('leaves no temporary file behind, even with many puts to one directory at once', async () => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => blobs.put(`many/m/file-${i % 10}`, Buffer.from(`v${i}`))));
    expect(filesUnder(path.join(dataDir, 'blobs', 'many'))).toEqual(
      Array.from({ length: 10 }, (_, i) => `m/file-${i}`).sort(),
    );
  });

  it('writes nothing outside its root for a key that climbs out', async () => {
    for (const key of ['../outside', 'inbound/../../outside'])
      await expect(blobs.put(key, Buffer.from('x')), key).rejects.toThrow(InvalidBlobKeyError);
    expect(fs.existsSync(path.join(dataDir, 'outside'))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(dataDir), 'outside'))).toBe(false);
  });
});

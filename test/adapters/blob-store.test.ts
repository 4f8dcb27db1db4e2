// The data dir's blob store on a real temporary directory: bytes back exactly as put, nothing for a
// missing key, ranges, removal of a key and of a prefix, listing, refused keys, private modes, a
// directory removed by another process, and no temporary file left beside what was put.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileBlobStore, InvalidBlobKeyError, type BlobStore } from '../../src/adapters/blob-store/index.ts';

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

  it('replaces the bytes of a key put again, and puts an empty file', async () => {
    await blobs.put('replace/me', Buffer.from('first, and longer'));
    await blobs.put('replace/me', Buffer.from('second'));
    expect((await blobs.get('replace/me'))?.toString()).toBe('second');
    await blobs.put('replace/empty', new Uint8Array());
    expect((await blobs.get('replace/empty'))?.length).toBe(0);
  });

  it('reads a range of a blob; a range past its end is an error, of a missing key null', async () => {
    await blobs.put('pack/2026-11-25-10/p.pack', Buffer.from('original|attachment'));
    expect((await blobs.get('pack/2026-11-25-10/p.pack', { offset: 0, length: 8 }))?.toString()).toBe('original');
    expect((await blobs.get('pack/2026-11-25-10/p.pack', { offset: 9, length: 10 }))?.toString()).toBe('attachment');
    expect((await blobs.get('pack/2026-11-25-10/p.pack', { offset: 9, length: 0 }))?.length).toBe(0);
    await expect(blobs.get('pack/2026-11-25-10/p.pack', { offset: 9, length: 11 })).rejects.toThrow(/holds 10 of/);
    expect(await blobs.get('pack/2026-11-25-10/none.pack', { offset: 0, length: 1 })).toBeNull();
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

  it('lists the names directly under a prefix, sorted; an unknown prefix lists nothing', async () => {
    await blobs.put('list/2026-11-24/a/original.eml', Buffer.from('a'));
    await blobs.put('list/2026-11-25/b/original.eml', Buffer.from('b'));
    await blobs.put('list/2026-11-25/c/attachment-0', Buffer.from('c'));
    await blobs.put('list/top', Buffer.from('t'));
    expect(await blobs.list('list/')).toEqual(['2026-11-24', '2026-11-25', 'top']);
    expect(await blobs.list('list/2026-11-25/')).toEqual(['b', 'c']);
    expect(await blobs.list('list/2026-01-01/')).toEqual([]);
  });

  it('removes one key, or everything under a prefix, and nothing there is no error', async () => {
    await blobs.put('gone/day/m1/original.eml', Buffer.from('1'));
    await blobs.put('gone/day/m1/attachment-0', Buffer.from('2'));
    await blobs.put('gone/day/m2/original.eml', Buffer.from('3'));
    await blobs.remove('gone/day/m1/attachment-0');
    expect(await blobs.get('gone/day/m1/attachment-0')).toBeNull();
    expect(await blobs.get('gone/day/m1/original.eml')).not.toBeNull();
    await blobs.remove('gone/day/m1/');
    expect(await blobs.list('gone/day/')).toEqual(['m2']);
    await blobs.remove('gone/day/');
    expect(await blobs.list('gone/')).toEqual([]);
    expect(await blobs.get('gone/day/m2/original.eml')).toBeNull();
    await blobs.remove('gone/day/');
    await blobs.remove('gone/never/put');
  });

  it('refuses keys outside [a-z0-9._-] segments joined by /: no .., no leading /, no empty segment', async () => {
    const bad = [
      '',
      '/etc/passwd',
      '../outside',
      'inbound/../../outside',
      'inbound/./x',
      'inbound//x',
      'Inbound/x',
      'inbound/a b',
      'inbound\\x',
      'inbound/x\0',
      'inbound/ü',
    ];
    for (const key of bad) {
      await expect(blobs.put(key, Buffer.from('x')), key).rejects.toThrow(InvalidBlobKeyError);
      await expect(blobs.get(key), key).rejects.toThrow(InvalidBlobKeyError);
      await expect(blobs.remove(key), key).rejects.toThrow(InvalidBlobKeyError);
      await expect(blobs.list(`${key}/`), key).rejects.toThrow(InvalidBlobKeyError);
    }
    await expect(blobs.list('inbound')).rejects.toThrow(InvalidBlobKeyError);
    expect(fs.existsSync(path.join(dataDir, 'outside'))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(dataDir), 'outside'))).toBe(false);
  });
});

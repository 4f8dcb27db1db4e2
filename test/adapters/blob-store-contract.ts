// What every blob store must do, run against the data dir's files (blob-store.test.ts) and against
// S3 on loopback (blob-store-s3.test.ts): bytes back exactly as put, nothing for a missing key,
// ranges, removal of a key and of a prefix, listing, and the same refused keys.
import { describe, expect, it } from 'vitest';
import { InvalidBlobKeyError, type BlobStore } from '../../src/adapters/blob-store/index.ts';

export function blobStoreContract(name: string, store: () => BlobStore) {
  describe(`${name}: the blob store contract`, () => {
    it('gives back exactly the bytes put, and null for a missing key', async () => {
      const blobs = store();
      const bytes = Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a, 0x2e, 0x0d, 0x0a, 0x80, 0]);
      await blobs.put('contract/2026-11-25/inmsg_a/original.eml', bytes);
      expect((await blobs.get('contract/2026-11-25/inmsg_a/original.eml'))?.equals(bytes)).toBe(true);
      expect(await blobs.get('contract/2026-11-25/inmsg_a/attachment-0')).toBeNull();
      expect(await blobs.get('contract/nothing/here')).toBeNull();
      expect(await blobs.get('contract/2026-11-25/inmsg_a/original.eml/more')).toBeNull();
    });

    it('replaces the bytes of a key put again, and puts an empty blob', async () => {
      const blobs = store();
      await blobs.put('contract/replace/me', Buffer.from('first, and longer'));
      await blobs.put('contract/replace/me', Buffer.from('second'));
      expect((await blobs.get('contract/replace/me'))?.toString()).toBe('second');
      await blobs.put('contract/replace/empty', new Uint8Array());
      expect((await blobs.get('contract/replace/empty'))?.length).toBe(0);
    });

    it('reads a range of a blob; a range past its end is an error, of a missing key null', async () => {
      const blobs = store();
      await blobs.put('contract/pack/p.pack', Buffer.from('original|attachment'));
      expect((await blobs.get('contract/pack/p.pack', { offset: 0, length: 8 }))?.toString()).toBe('original');
      expect((await blobs.get('contract/pack/p.pack', { offset: 9, length: 10 }))?.toString()).toBe('attachment');
      expect((await blobs.get('contract/pack/p.pack', { offset: 9, length: 0 }))?.length).toBe(0);
      await expect(blobs.get('contract/pack/p.pack', { offset: 9, length: 11 })).rejects.toThrow(/holds 10 of/);
      expect(await blobs.get('contract/pack/none.pack', { offset: 0, length: 1 })).toBeNull();
    });

    it('lists the names directly under a prefix, sorted; an unknown prefix lists nothing', async () => {
      const blobs = store();
      await blobs.put('contract/list/2026-11-24/a/original.eml', Buffer.from('a'));
      await blobs.put('contract/list/2026-11-25/b/original.eml', Buffer.from('b'));
      await blobs.put('contract/list/2026-11-25/c/attachment-0', Buffer.from('c'));
      await blobs.put('contract/list/top', Buffer.from('t'));
      expect(await blobs.list('contract/list/')).toEqual(['2026-11-24', '2026-11-25', 'top']);
      expect(await blobs.list('contract/list/2026-11-25/')).toEqual(['b', 'c']);
      expect(await blobs.list('contract/list/2026-01-01/')).toEqual([]);
    });

    it('removes one key, or everything under a prefix, and nothing there is no error', async () => {
      const blobs = store();
      await blobs.put('contract/gone/day/m1/original.eml', Buffer.from('1'));
      await blobs.put('contract/gone/day/m1/attachment-0', Buffer.from('2'));
      await blobs.put('contract/gone/day/m2/original.eml', Buffer.from('3'));
      await blobs.remove('contract/gone/day/m1/attachment-0');
      expect(await blobs.get('contract/gone/day/m1/attachment-0')).toBeNull();
      expect(await blobs.get('contract/gone/day/m1/original.eml')).not.toBeNull();
      await blobs.remove('contract/gone/day/m1/');
      expect(await blobs.list('contract/gone/day/')).toEqual(['m2']);
      await blobs.remove('contract/gone/day/');
      expect(await blobs.list('contract/gone/')).toEqual([]);
      expect(await blobs.get('contract/gone/day/m2/original.eml')).toBeNull();
      await blobs.remove('contract/gone/day/');
      await blobs.remove('contract/gone/never/put');
    });

    it('refuses keys outside [a-z0-9._-] segments joined by /: no .., no leading /, no empty segment', async () => {
      const blobs = store();
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
    });
  });
}

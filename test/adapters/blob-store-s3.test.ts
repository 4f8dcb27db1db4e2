// The S3 blob store against S3 on loopback (s3rver), through the same contract as the files store,
// plus what is S3's own: the bucket prefix of HERALD_BLOB_STORE, and Herald built with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3BlobStore, type BlobStore, type S3BlobStoreOptions } from '../../src/adapters/blob-store/index.ts';
import { loadConfig } from '../../src/config.ts';
import { startFakeS3, fakeS3Env, type FakeS3 } from '../support/fake-s3.ts';
import { blobStoreContract } from './blob-store-contract.ts';

let s3: FakeS3;
let blobs: BlobStore;
let bare: BlobStore;
let config: S3BlobStoreOptions;

beforeAll(async () => {
  s3 = await startFakeS3();
  const { blobStore } = loadConfig({ ...fakeS3Env(s3, 'deploy/one') });
  if (blobStore.kind !== 's3') throw new Error('HERALD_BLOB_STORE not read as s3');
  config = blobStore;
  blobs = await createS3BlobStore(config);
  bare = await createS3BlobStore({ ...config, prefix: '' });
});
afterAll(async () => {
  blobs?.close();
  bare?.close();
  await s3?.close();
});

blobStoreContract('s3', () => blobs);

describe('the S3 blob store', () => {
  it('keeps every key under the prefix of HERALD_BLOB_STORE, and lists nothing of another prefix', async () => {
    await blobs.put('inbound/2026-11-25/m/original.eml', Buffer.from('raw'));
    expect((await bare.get('deploy/one/inbound/2026-11-25/m/original.eml'))?.toString()).toBe('raw');
    await bare.put('deploy/two/inbound/x', Buffer.from('other'));
    expect(await bare.list('deploy/')).toEqual(['one', 'two']);
    expect(await blobs.list('inbound/')).toEqual(['2026-11-25']);
    expect(await blobs.get('inbound/x')).toBeNull();
  });

  it('fails a put signed with another access key, rather than losing the bytes quietly', async () => {
    const stranger = await createS3BlobStore({
      ...config,
      credentials: { accessKeyId: 'OTHER', secretAccessKey: 'x' },
    });
    try {
      await expect(stranger.put('denied/x', Buffer.from('x'))).rejects.toThrow(/access key/i);
    } finally {
      stranger.close();
    }
  });

  it('removes a prefix holding more than one page of a listing (1,000 keys)', async () => {
    await Promise.all(
      Array.from({ length: 1005 }, (_, i) => blobs.put(`many/k/${String(i).padStart(4, '0')}`, Buffer.from('1'))),
    );
    expect((await blobs.list('many/k/')).length).toBe(1005);
    await blobs.remove('many/');
    expect(await blobs.list('many/')).toEqual([]);
  }, 60_000);
});

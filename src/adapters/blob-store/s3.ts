// The blob store on S3-compatible object storage (HERALD_BLOB_STORE=s3://bucket/prefix): every
// process of a deployment sees the same blobs, wherever it runs. A put resolves once S3 answered 200,
// which is its durability; a get of a range is a Range GET. Keys are already valid object names
// (types.ts); the prefix is put before them. Checksums are sent only where S3 requires them, so that
// S3-compatible stores that know no flexible checksums (older MinIO and others) accept the requests.
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3BlobStoreOptions } from '../../config/blobs.ts';
import { InvalidBlobKeyError, type BlobStore, type ByteRange } from './types.ts';

const SEGMENT = /^[a-z0-9._-]+$/;

/** A key (`prefix: false`) or a prefix, which ends in `/`, checked as the file store checks them. */
function checked(keyOrPrefix: string, prefix: boolean): string {
  if (keyOrPrefix.endsWith('/') !== prefix)
    throw new InvalidBlobKeyError(`not a blob ${prefix ? 'prefix' : 'key'}: ${JSON.stringify(keyOrPrefix)}`);
  const segments = (prefix ? keyOrPrefix.slice(0, -1) : keyOrPrefix).split('/');
  if (!segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..'))
    throw new InvalidBlobKeyError(`not a blob key: ${JSON.stringify(keyOrPrefix)}`);
  return keyOrPrefix;
}

const notFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

export async function createS3BlobStore(options: S3BlobStoreOptions): Promise<BlobStore> {
  // Loaded only by deployments that use it: the SDK is large (src/platform/lazy.ts explains why).
  const s3 = await import('@aws-sdk/client-s3');
  const client: S3Client = new s3.S3Client({
    region: options.region,
    ...(options.endpoint === null ? {} : { endpoint: options.endpoint, forcePathStyle: true }),
    ...(options.credentials === null ? {} : { credentials: options.credentials }),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  const objectKey = (key: string, prefix = false) => options.prefix + checked(key, prefix);

  async function keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new s3.ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
      for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken !== undefined);
    return keys;
  }

  return {
    async put(key, bytes) {
      await client.send(new s3.PutObjectCommand({ Bucket, Key: objectKey(key), Body: bytes }));
    },

    async get(key, range?: ByteRange) {
      if (range?.length === 0) {
        // S3 has no empty range: ask for the object's size instead.
        try {
          const head = await client.send(new s3.HeadObjectCommand({ Bucket, Key: objectKey(key) }));
          if ((head.ContentLength ?? 0) < range.offset)
            throw new Error(`${key} holds ${head.ContentLength} bytes, less than the offset ${range.offset}`);
          return Buffer.alloc(0);
        } catch (error) {
          if (notFound(error)) return null;
          throw error;
        }
      }
      try {
        const answer = await client.send(
          new s3.GetObjectCommand({
            Bucket,
            Key: objectKey(key),
            ...(range ? { Range: `bytes=${range.offset}-${range.offset + range.length - 1}` } : {}),
          }),
        );
        const bytes = Buffer.from(await answer.Body!.transformToByteArray());
        if (range && bytes.length !== range.length)
          throw new Error(`${key} holds ${bytes.length} of the ${range.length} bytes at ${range.offset}`);
        return bytes;
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },

    async remove(keyOrPrefix) {
      const target = objectKey(keyOrPrefix, keyOrPrefix.endsWith('/'));
      if (!keyOrPrefix.endsWith('/')) {
        await client.send(new s3.DeleteObjectCommand({ Bucket, Key: target }));
        return;
      }
      const keys = await keysUnder(target);
      // DeleteObjects takes at most 1,000 keys a request.
      for (let i = 0; i < keys.length; i += 1000)
        await client.send(
          new s3.DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
          }),
        );
    },

    async list(prefix) {
      const under = objectKey(prefix, true);
      const names = new Set<string>();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new s3.ListObjectsV2Command({ Bucket, Prefix: under, Delimiter: '/', ContinuationToken }),
        );
        for (const p of page.CommonPrefixes ?? []) names.add(p.Prefix!.slice(under.length).replace(/\/$/, ''));
        for (const object of page.Contents ?? []) names.add(object.Key!.slice(under.length));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken !== undefined);
      return [...names].filter((name) => name !== '').sort();
    },

    close: () => client.destroy(),
  };
}

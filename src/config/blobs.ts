// Where blobs are kept (operator.md, "Dashboard, campaigns, submission, direct delivery, retention"):
// HERALD_BLOB_STORE `files` (the data dir, the default) or `s3://bucket/prefix` with HERALD_S3_*.
import { ConfigError } from '../config-error.ts';
import { text, type Env } from './parse.ts';

/** Where the S3 blob store keeps its objects (adapters/blob-store/s3.ts). */
export interface S3BlobStoreOptions {
  bucket: string;
  /** Put before every key; empty or ending in `/`. */
  prefix: string;
  /** HERALD_S3_ENDPOINT: another S3-compatible service (path-style addressing); null for AWS. */
  endpoint: string | null;
  region: string;
  /** Null: the AWS SDK's default credentials. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

export type BlobStoreConfig = { kind: 'files' } | ({ kind: 's3' } & S3BlobStoreOptions);

// S3's bucket naming rules: 3 to 63 of [a-z0-9.-], starting and ending with a letter or digit.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[a-z0-9._-]+$/;

export function blobStoreConfig(env: Env): BlobStoreConfig {
  const store = text(env, 'HERALD_BLOB_STORE') ?? 'files';
  if (store === 'files') return { kind: 'files' };
  const expected = '`files` or `s3://bucket/prefix` (a bucket name, then an optional prefix of [a-z0-9._-] segments)';
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(store);
  if (!match || !BUCKET.test(match[1]!)) throw new ConfigError('HERALD_BLOB_STORE', expected, store);
  const path = match[2]!.replace(/\/$/, '');
  if (path !== '' && !path.split('/').every((s) => PREFIX_SEGMENT.test(s) && s !== '.' && s !== '..'))
    throw new ConfigError('HERALD_BLOB_STORE', expected, store);
  const endpoint = text(env, 'HERALD_S3_ENDPOINT');
  if (endpoint !== null && !/^https?:\/\/[^/]+\/?$/.test(endpoint))
    throw new ConfigError(
      'HERALD_S3_ENDPOINT',
      'an http(s) URL of an S3-compatible service, e.g. https://s3.example.com',
      endpoint,
    );
  const accessKeyId = text(env, 'HERALD_S3_ACCESS_KEY_ID');
  const secretAccessKey = text(env, 'HERALD_S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === null) !== (secretAccessKey === null))
    throw new ConfigError(
      accessKeyId === null ? 'HERALD_S3_ACCESS_KEY_ID' : 'HERALD_S3_SECRET_ACCESS_KEY',
      'set together with its pair (or neither, for the SDK default credentials)',
      '(unset)',
    );
  return {
    kind: 's3',
    bucket: match[1]!,
    prefix: path === '' ? '' : `${path}/`,
    endpoint,
    region: text(env, 'HERALD_S3_REGION') ?? 'us-east-1',
    credentials: accessKeyId === null ? null : { accessKeyId, secretAccessKey: secretAccessKey! },
  };
}

// HERALD_BLOB_STORE and HERALD_S3_* at their edges: files by default, s3://bucket/prefix read into
// the S3 store's options, and every bad value refused at start naming the variable.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { ConfigError } from '../../src/config-error.ts';

describe('HERALD_BLOB_STORE', () => {
  it('is the data dir when unset or files', () => {
    expect(loadConfig({}).blobStore).toEqual({ kind: 'files' });
    expect(loadConfig({ HERALD_BLOB_STORE: 'files' }).blobStore).toEqual({ kind: 'files' });
  });

  it('reads s3://bucket/prefix with the endpoint, region and key pair', () => {
    expect(
      loadConfig({
        HERALD_BLOB_STORE: 's3://mail-blobs/herald/prod/',
        HERALD_S3_ENDPOINT: 'https://s3.example.com',
        HERALD_S3_REGION: 'eu-west-1',
        HERALD_S3_ACCESS_KEY_ID: 'AKIA1',
        HERALD_S3_SECRET_ACCESS_KEY: 'secret',
      }).blobStore,
    ).toEqual({
      kind: 's3',
      bucket: 'mail-blobs',
      prefix: 'herald/prod/',
      endpoint: 'https://s3.example.com',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'secret' },
    });
    expect(loadConfig({ HERALD_BLOB_STORE: 's3://mail-blobs' }).blobStore).toEqual({
      kind: 's3',
      bucket: 'mail-blobs',
      prefix: '',
      endpoint: null,
      region: 'us-east-1',
      credentials: null,
    });
  });

  it('refuses a bad store, bucket, prefix, endpoint or half a key pair, naming the variable', () => {
    const refused = (env: Record<string, string>, variable: string) => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}=`));
    };
    refused({ HERALD_BLOB_STORE: 'disk' }, 'HERALD_BLOB_STORE');
    refused({ HERALD_BLOB_STORE: 's3://' }, 'HERALD_BLOB_STORE');
    refused({ HERALD_BLOB_STORE: 's3://Upper_Case' }, 'HERALD_BLOB_STORE');
    refused({ HERALD_BLOB_STORE: 's3://bucket/../up' }, 'HERALD_BLOB_STORE');
    refused({ HERALD_BLOB_STORE: 's3://bucket/a//b' }, 'HERALD_BLOB_STORE');
    refused({ HERALD_BLOB_STORE: 's3://bucket', HERALD_S3_ENDPOINT: 'ftp://x' }, 'HERALD_S3_ENDPOINT');
    refused({ HERALD_BLOB_STORE: 's3://bucket', HERALD_S3_ACCESS_KEY_ID: 'AKIA1' }, 'HERALD_S3_SECRET_ACCESS_KEY');
  });
});

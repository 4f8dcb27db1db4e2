// Where received mail's originals and attachments are kept: HERALD_DATA_DIR/blobs, or S3 (HERALD_BLOB_STORE).
export { createFileBlobStore } from './files.ts';
export { createS3BlobStore } from './s3.ts';
export type { S3BlobStoreOptions } from '../../config/blobs.ts';
export { InvalidBlobKeyError, type BlobKey, type BlobStore, type ByteRange } from './types.ts';

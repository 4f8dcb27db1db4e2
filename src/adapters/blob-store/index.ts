// Where received mail's originals and attachments are kept (HERALD_DATA_DIR/blobs today).
export { createFileBlobStore } from './files.ts';
export { InvalidBlobKeyError, type BlobKey, type BlobStore, type ByteRange } from './types.ts';

// Stored files (received mail's originals and attachments) behind a few methods, so the areas never
// touch paths: the data dir's files (files.ts, the default) or S3-compatible storage (s3.ts); keys
// are valid object names and prefixes end in `/`, as S3's do.

/** A key: segments of `[a-z0-9._-]` joined by `/`, e.g. `inbound/2026-11-25-10/pack_….pack`. */
export type BlobKey = string;

export interface BlobStore {
  /** Stores the bytes under the key, replacing any; resolves once they would survive a crash. */
  put(key: BlobKey, bytes: Uint8Array): Promise<void>;
  /** The bytes stored under the key (or `range` of them), or null when there are none. */
  get(key: BlobKey, range?: ByteRange): Promise<Buffer | null>;
  /** Removes a key, or everything under a prefix ending in `/`; nothing there is no error. */
  remove(keyOrPrefix: string): Promise<void>;
  /** The names directly under a prefix ending in `/` (keys and deeper prefixes, without `/`), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Lets go of connections (S3); nothing for files. */
  close(): void;
}

/** Part of a blob: `length` bytes from `offset` (an S3 Range GET). */
export interface ByteRange {
  offset: number;
  length: number;
}

export class InvalidBlobKeyError extends Error {
  override name = 'InvalidBlobKeyError';
}

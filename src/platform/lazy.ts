// A package loaded at its first use rather than at start: `herald start` then reads only the
// modules its first requests need (bench/start.ts), and each heavy package once, when it is wanted.

/** `load` run once, at the first call; every call answers the same promise. */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

// PGlite runs each statement synchronously on this thread, and hands the next waiting one its turn
// in a microtask: statements queued together (every queue's first claim at start) ran back to back
// and kept the event loop from I/O until all were done, so a request waited for all of them. Here
// each unit of work (a statement outside a transaction, or a whole transaction) starts in a turn of
// the event loop of its own, in the order asked, and I/O is served between two of them.
import type { PGlite } from '@electric-sql/pglite';

/** `pglite` as Kysely's dialect uses it (query, transaction), one unit of work per turn of the event loop. */
export function oneUnitPerTurn(pglite: PGlite): PGlite {
  let last: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = last.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(work);
    last = run.catch(() => {});
    return run;
  };
  return new Proxy(pglite, {
    get(target, property) {
      if (property === 'query') return (...args: Parameters<PGlite['query']>) => inTurn(() => target.query(...args));
      if (property === 'transaction')
        return (...args: Parameters<PGlite['transaction']>) => inTurn(() => target.transaction(...args));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

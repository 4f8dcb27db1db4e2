// A deadline for one outgoing request. AbortSignal.timeout's timer cannot be cleared: every request
// that had long been answered still fired its abort (with a DOMException) when its timeout came round,
// thousands a second for a busy worker. This one is cleared by done() once the answer is in.
import { setMaxListeners } from 'node:events';

export interface Deadline {
  signal: AbortSignal;
  done(): void;
}

/** `within`: a wider bound (a caller's signal) that ends the request too, with its own reason. */
export function deadline(ms: number, within?: AbortSignal): Deadline {
  const controller = new AbortController();
  if (within?.aborted) {
    controller.abort(within.reason);
    return { signal: controller.signal, done: () => {} };
  }
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  timer.unref();
  if (within === undefined) return { signal: controller.signal, done: () => clearTimeout(timer) };
  const end = () => controller.abort(within.reason);
  // A worker's batch signal bounds hundreds of requests at once: that many listeners is no leak.
  setMaxListeners(0, within);
  within.addEventListener('abort', end, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      within.removeEventListener('abort', end);
    },
  };
}

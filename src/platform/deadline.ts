// A deadline for one outgoing request. AbortSignal.timeout's timer cannot be cleared: every request
// that had long been answered still fired its abort (with a DOMException) when its timeout came round,
// thousands a second for a busy worker. This one is cleared by done() once the answer is in.
export interface Deadline {
  signal: AbortSignal;
  done(): void;
}

export function deadline(ms: number): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  timer.unref();
  return { signal: controller.signal, done: () => clearTimeout(timer) };
}

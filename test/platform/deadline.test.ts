// The request deadline: it aborts a request still running when it passes, and once done() is
// called (the answer is in) it never fires. Timers are moved, not waited for.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deadline } from '../../src/platform/deadline.ts';

describe('deadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('aborts with a TimeoutError when the time passes, not a millisecond before', () => {
    const limit = deadline(20);
    vi.advanceTimersByTime(19);
    expect(limit.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(limit.signal.aborted).toBe(true);
    expect((limit.signal.reason as Error).name).toBe('TimeoutError');
  });

  it('never fires once done() is called', () => {
    const limit = deadline(20);
    limit.done();
    vi.advanceTimersByTime(1_000);
    expect(limit.signal.aborted).toBe(false);
  });

  it('ends with a wider signal, with its reason, and no longer listens to it once done', () => {
    const batch = new AbortController();
    const limit = deadline(20, batch.signal);
    const finished = deadline(20, batch.signal);
    finished.done();
    batch.abort(new Error('batch deadline'));
    expect((limit.signal.reason as Error).message).toBe('batch deadline');
    expect(finished.signal.aborted).toBe(false);
    expect(deadline(20, batch.signal).signal.reason).toBe(batch.signal.reason);
  });
});

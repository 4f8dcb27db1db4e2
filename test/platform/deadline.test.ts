// The request deadline: it aborts a request still running when it passes, and once done() is
// called (the answer is in) it never fires.
import { describe, expect, it } from 'vitest';
import { deadline } from '../../src/platform/deadline.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deadline', () => {
  it('aborts with a TimeoutError when the time passes', async () => {
    const limit = deadline(20);
    expect(limit.signal.aborted).toBe(false);
    await wait(60);
    expect(limit.signal.aborted).toBe(true);
    expect((limit.signal.reason as Error).name).toBe('TimeoutError');
  });

  it('never fires once done() is called', async () => {
    const limit = deadline(20);
    limit.done();
    await wait(60);
    expect(limit.signal.aborted).toBe(false);
  });
});

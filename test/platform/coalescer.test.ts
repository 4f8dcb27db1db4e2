// Group commit: calls that arrive while a batch runs go together in the next; a failing batch is
// retried item by item so only the bad item fails.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Coalescer } from '../../src/platform/coalescer.ts';

/** A batch function that records its batches and waits for release() before answering. */
function gated() {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const run = async (items: number[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => gates.push(resolve));
    if (items.includes(13) && items.length > 1) throw new Error('batch refused');
    if (items.includes(13)) throw new Error('13 is bad');
    return items.map((n) => n * 10);
  };
  const release = async () => {
    while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
    gates.shift()!();
  };
  return { batches, run, release };
}

describe('Coalescer', () => {
  it('runs the first call at once and batches the calls that arrive meanwhile', async () => {
    const g = gated();
    const c = new Coalescer(g.run, { maxBatch: 10 });
    const first = c.submit(1);
    const rest = [2, 3, 4].map((n) => c.submit(n));
    await g.release();
    await g.release();
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(g.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps batches within maxBatch and what canJoin allows, in arrival order', async () => {
    const g = gated();
    const c = new Coalescer(g.run, {
      maxBatch: 3,
      canJoin: (batch, n) => batch.filter((m) => m % 2 === n % 2).length < 1,
    });
    const all = [0, 1, 2, 3, 4, 5, 6].map((n) => c.submit(n));
    for (let i = 0; i < 4; i++) await g.release();
    expect(await Promise.all(all)).toEqual([0, 10, 20, 30, 40, 50, 60]);
    // First [0] alone (it ran at once), then at most one even and one odd per batch.
    expect(g.batches).toEqual([[0], [1, 2], [3, 4], [5, 6]]);
  });

  it('with concurrency 2, a second batch starts while the first is in the database', async () => {
    const g = gated();
    const c = new Coalescer(g.run, { maxBatch: 10, concurrency: 2 });
    const all = [1, 2, 3, 4].map((n) => c.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    // 1 started at once, 2 started beside it (a second slot), 3 and 4 wait for a free slot.
    expect(g.batches).toEqual([[1], [2]]);
    for (let i = 0; i < 3; i++) await g.release();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40]);
    expect(g.batches).toEqual([[1], [2], [3, 4]]);
  });

  it('a failing batch is retried item by item: only the bad item fails', async () => {
    const g = gated();
    const c = new Coalescer(g.run, { maxBatch: 10 });
    const first = c.submit(1);
    const others = [12, 13, 14].map((n) =>
      c.submit(n).then(
        (v) => ({ ok: v }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    await g.release(); // [1]
    await g.release(); // [12, 13, 14] refused
    for (let i = 0; i < 3; i++) await g.release(); // one by one
    expect(await first).toBe(10);
    expect(await Promise.all(others)).toEqual([{ ok: 120 }, { error: '13 is bad' }, { ok: 140 }]);
    expect(g.batches).toEqual([[1], [12, 13, 14], [12], [13], [14]]);
  });

  it('once a batch is full, canJoin is not asked about the items that wait', async () => {
    const g = gated();
    const asked: number[] = [];
    const c = new Coalescer(g.run, { maxBatch: 2, canJoin: (_batch, n) => (asked.push(n), true) });
    const all = [0, 1, 2, 3, 4, 5].map((n) => c.submit(n));
    for (let i = 0; i < 4; i++) await g.release();
    expect(await Promise.all(all)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(g.batches).toEqual([[0], [1, 2], [3, 4], [5]]);
    // [0] alone; then 1 and 2 fill the batch, 3 and 4 the next, 5 the last: each item asked once.
    expect(asked).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

/** Lets the drain loop reach its next await. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Coalescer gatherMs', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('while busy, a batch waits until as many items are queued as were in flight when the last one ended', async () => {
    const g = gated();
    const c = new Coalescer(g.run, { maxBatch: 10, gatherMs: 60_000 });
    const first = c.submit(1);
    const queued = [2, 3].map((n) => c.submit(n));
    await g.release(); // [1] ends with 2 and 3 queued: three callers were in flight
    expect(await first).toBe(10);
    await settle();
    expect(g.batches).toEqual([[1]]); // without gatherMs, [2, 3] would have started here
    const late = c.submit(4); // the caller of 1 again: three queued, the batch goes at once
    await g.release();
    expect(await Promise.all([...queued, late])).toEqual([20, 30, 40]);
    expect(g.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('stops waiting after gatherMs when fewer items come', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const g = gated();
    const c = new Coalescer(g.run, { maxBatch: 10, gatherMs: 5 });
    const first = c.submit(1);
    const queued = [2, 3].map((n) => c.submit(n));
    await g.release();
    expect(await first).toBe(10);
    await settle();
    expect(g.batches).toEqual([[1]]);
    vi.advanceTimersByTime(5);
    await g.release();
    expect(await Promise.all(queued)).toEqual([20, 30]);
    expect(g.batches).toEqual([[1], [2, 3]]);
  });

  it('after an idle spell longer than gatherMs, the first call goes at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const g = gated();
    const c = new Coalescer(g.run, { maxBatch: 10, gatherMs: 5 });
    const busy = [1, 2, 3].map((n) => c.submit(n));
    await g.release(); // [1]; then [2, 3] gather for a third item that does not come
    await settle();
    vi.advanceTimersByTime(5);
    await g.release(); // [2, 3]: two were in flight when it ended, so the next batch would gather
    expect(await Promise.all(busy)).toEqual([10, 20, 30]);
    vi.advanceTimersByTime(6); // idle for longer than gatherMs
    const alone = c.submit(4);
    await settle();
    expect(g.batches).toEqual([[1], [2, 3], [4]]);
    await g.release();
    expect(await alone).toBe(40);
  });
});

// The group commit of work nobody waits on (tracking events, spooled inbound messages): batches in arrival order up to maxBatch, the first event of an
// idle writer at once, a busy writer gathering, a promise only past the backlog limit (resolved once
// that event is written), a failed batch retried event by event, and drained().
import { describe, expect, it } from 'vitest';
import { BatchWriter } from '../../src/platform/batch-writer.ts';

/** A write the test releases by hand, recording each batch it was given. */
function gatedWrites(fail: (event: number) => boolean = () => false) {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const write = (events: number[]) => {
    batches.push([...events]);
    return new Promise<void>((resolve, reject) => {
      gates.push(() => (events.some(fail) ? reject(new Error(`bad event in ${events.join(',')}`)) : resolve()));
    });
  };
  /** Releases the oldest write still waiting, and lets the writer move on. */
  const release = async () => {
    gates.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { batches, write, release };
}

describe('BatchWriter', () => {
  it('writes the first event at once, then everything that waited, in order, maxBatch at a time', async () => {
    const w = gatedWrites();
    const writer = new BatchWriter<number>({ write: w.write, onError: () => {}, maxBatch: 3, limit: 100, gatherMs: 0 });
    for (let i = 1; i <= 6; i++) expect(writer.add(i)).toBeNull();
    expect(w.batches).toEqual([[1]]);
    expect(writer.backlog).toBe(6);
    await w.release();
    expect(w.batches).toEqual([[1], [2, 3, 4]]);
    expect(writer.backlog).toBe(5);
    await w.release();
    expect(w.batches).toEqual([[1], [2, 3, 4], [5, 6]]);
    const drained = writer.drained();
    await w.release();
    await drained;
  });

  it('a busy writer waits gatherMs for more before its next batch', async () => {
    const w = gatedWrites();
    const writer = new BatchWriter<number>({
      write: w.write,
      onError: () => {},
      maxBatch: 100,
      limit: 100,
      gatherMs: 30,
    });
    writer.add(1);
    writer.add(2);
    await w.release();
    // Still gathering: 3 joins the batch that 2 is waiting in.
    writer.add(3);
    expect(w.batches).toEqual([[1]]);
    await expect.poll(() => w.batches.length).toBe(2);
    expect(w.batches[1]).toEqual([2, 3]);
    await w.release();
    await writer.drained();
  });

  it('past the backlog limit, add answers a promise resolved once that event is written', async () => {
    const w = gatedWrites();
    const writer = new BatchWriter<number>({ write: w.write, onError: () => {}, maxBatch: 2, limit: 3, gatherMs: 0 });
    const answers = [1, 2, 3, 4, 5].map((i) => writer.add(i));
    expect(answers.slice(0, 3)).toEqual([null, null, null]);
    let fourth = false;
    let fifth = false;
    void answers[3]!.then(() => (fourth = true));
    void answers[4]!.then(() => (fifth = true));
    await w.release(); // [1]
    await w.release(); // [2, 3]
    expect([fourth, fifth]).toEqual([false, false]);
    await w.release(); // [4, 5]
    expect([fourth, fifth]).toEqual([true, true]);
    await writer.drained();
  });

  it('a failed batch is written again event by event: only the bad event is reported', async () => {
    const w = gatedWrites((event) => event === 3);
    const failed: number[] = [];
    const writer = new BatchWriter<number>({
      write: w.write,
      onError: (_error, event) => failed.push(event),
      maxBatch: 10,
      limit: 100,
      gatherMs: 0,
    });
    writer.add(1);
    for (const i of [2, 3, 4]) writer.add(i);
    await w.release(); // [1]
    await w.release(); // [2, 3, 4] fails
    await w.release(); // [2]
    await w.release(); // [3] fails
    await w.release(); // [4]
    await writer.drained();
    expect(w.batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
    expect(failed).toEqual([3]);
  });

  it('drained() resolves at once when idle', async () => {
    const writer = new BatchWriter<number>({
      write: async () => {},
      onError: () => {},
      maxBatch: 10,
      limit: 10,
      gatherMs: 0,
    });
    await writer.drained();
    writer.add(1);
    await writer.drained();
    expect(writer.backlog).toBe(0);
  });
});

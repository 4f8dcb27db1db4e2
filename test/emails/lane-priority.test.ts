// The worker's two delivery lanes share a LanePriority: bulk messages start only while no
// transactional batch is in hand.
import { describe, expect, it } from 'vitest';
import { LanePriority } from '../../src/emails/lane-priority.ts';

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('LanePriority', () => {
  it('lets bulk work start at once when no transactional work is in hand', async () => {
    expect(await settled(new LanePriority().clear())).toBe(true);
  });

  it('holds bulk work while any transactional batch is in hand, and lets it go when the last ends', async () => {
    const priority = new LanePriority();
    const release: (() => void)[] = [];
    const first = priority.urgent(() => new Promise<string>((resolve) => release.push(() => resolve('a'))));
    const second = priority.urgent(() => new Promise<string>((resolve) => release.push(() => resolve('b'))));
    const bulk = priority.clear();
    expect(await settled(bulk)).toBe(false);
    release[0]!();
    expect(await first).toBe('a');
    expect(await settled(bulk)).toBe(false);
    release[1]!();
    expect(await second).toBe('b');
    expect(await settled(bulk)).toBe(true);
  });

  it('lets bulk work go when transactional work fails', async () => {
    const priority = new LanePriority();
    const failing = priority.urgent(() => Promise.reject(new Error('refused')));
    const bulk = priority.clear();
    await expect(failing).rejects.toThrow('refused');
    expect(await settled(bulk)).toBe(true);
  });
});

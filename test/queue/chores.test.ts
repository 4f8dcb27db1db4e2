// Periodic chores: one run per interval across many runners, the next one after the clock moves,
// failures recorded in last_error.
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { claimDueChores, defineChore, registerChores } from '../../src/queue/chores.ts';
import { QueueRunner, type Chore } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
import { deferred, secondHandle, uniqueName, until, within } from './support.ts';

const EVERY_MS = 60_000;

async function choreRow(name: string) {
  const { db } = await getTestDb();
  return db.selectFrom('chores').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
}

/** A chore that counts its runs; runs wait for `gate` when one is set. */
function countingChore(name: string) {
  const state = { runs: 0, gate: null as Promise<void> | null, started: deferred() };
  const chore = defineChore({
    name,
    everyMs: EVERY_MS,
    run: async () => {
      state.runs++;
      state.started.resolve();
      await state.gate;
    },
  });
  return { chore, state };
}

describe('chores', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function startRunner(chores: Chore[], clock: ManualClock, database = getTestDb()) {
    const runner = new QueueRunner({ database: await database, chores, clock, pollMs: 60_000 });
    cleanups.push(() => runner.stop());
    await runner.start();
    return runner;
  }

  it('of ten simultaneous claims exactly one wins', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const chore = defineChore({ name: uniqueName('race'), everyMs: EVERY_MS, run: async () => {} });
    await registerChores(db, [chore], clock.now());
    const results = await Promise.all(Array.from({ length: 10 }, () => claimDueChores(db, [chore], clock.now())));
    expect(results.flat().map((claimed) => claimed.chore.name)).toEqual([chore.name]);
  });

  it('runs once per interval across two runners, and again after the clock moves', async () => {
    const second = await secondHandle();
    cleanups.push(second.close);
    const clock = new ManualClock();
    const shared = countingChore(uniqueName('shared'));
    // Each runner also has a chore of its own: when it has run, that runner's claim (one statement
    // for all its chores) has also considered the shared chore.
    const probeA = countingChore(uniqueName('probe_a'));
    const probeB = countingChore(uniqueName('probe_b'));

    // A takes the shared chore and holds it (running) while B makes its first claim.
    const release = deferred();
    shared.state.gate = release.promise;
    const a = await startRunner([shared.chore, probeA.chore], clock);
    await within(shared.state.started.promise, 5_000, 'A to run the shared chore');
    const b = await startRunner([shared.chore, probeB.chore], clock, Promise.resolve(second.handle));
    await within(probeB.state.started.promise, 5_000, "B's first claim");
    release.resolve();
    await until(async () => (await choreRow(shared.chore.name)).last_run_at !== null, 'the run recorded');
    const first = await choreRow(shared.chore.name);
    expect(first.next_run_at).toEqual(new Date(clock.now().getTime() + EVERY_MS));
    expect(first.lease_until).toBeNull();
    expect(shared.state.runs).toBe(1);

    // Not due again until the interval has passed.
    clock.advance(EVERY_MS - 1);
    expect(await claimDueChores(second.handle.db, [shared.chore], clock.now())).toEqual([]);

    // One interval later it is due once more, and runs once although both runners are woken.
    clock.advance(1);
    shared.state.gate = null;
    probeA.state.started = deferred();
    probeB.state.started = deferred();
    a.wake();
    b.wake();
    await within(
      Promise.all([probeA.state.started.promise, probeB.state.started.promise]),
      5_000,
      'both runners to claim',
    );
    await until(
      async () => (await choreRow(shared.chore.name)).last_run_at?.getTime() === clock.now().getTime(),
      'second run recorded',
    );
    expect(shared.state.runs).toBe(2);
    expect((await choreRow(shared.chore.name)).next_run_at).toEqual(new Date(clock.now().getTime() + EVERY_MS));
  });

  it('records a failure in last_error and clears it after a good run', async () => {
    const clock = new ManualClock();
    let fail = true;
    const ran = { count: 0, next: deferred() };
    const chore = defineChore({
      name: uniqueName('flaky'),
      everyMs: EVERY_MS,
      run: async () => {
        ran.count++;
        ran.next.resolve();
        if (fail) throw new Error('rollup table locked');
      },
    });
    const runner = await startRunner([chore], clock);
    await within(ran.next.promise, 5_000, 'first run');
    await until(async () => (await choreRow(chore.name)).last_error !== null, 'failure recorded');
    const failed = await choreRow(chore.name);
    expect(failed.last_error).toBe('rollup table locked');
    // A failed run waits for its next turn like a good one.
    expect(failed.next_run_at).toEqual(new Date(clock.now().getTime() + EVERY_MS));
    expect(failed.lease_until).toBeNull();

    fail = false;
    ran.next = deferred();
    clock.advance(EVERY_MS);
    runner.wake();
    await within(ran.next.promise, 5_000, 'second run');
    await until(async () => (await choreRow(chore.name)).last_error === null, 'error cleared');
    expect(ran.count).toBe(2);
  });
});

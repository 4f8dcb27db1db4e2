// The `direct` transport's connection limit across two processes, through the database's ledger of
// destination slots: leases renewed while held, and taken again once their holder died.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseDestinationLedger, SLOT_LEASE_MS } from '../../src/destinations/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { getTestDb } from '../support/db.ts';
import {
  ADDRESSES,
  allClosedOn,
  close,
  connectionsOn,
  deliverAll,
  destinationOn,
  expectAllAccepted,
  sendOne,
  sink,
  transport,
  untried,
  useDestinationsBed,
} from './direct-destinations-support.ts';

useDestinationsBed();

describe('the connection limit across processes (the database ledger)', () => {
  const logger = { warn: () => {} };

  it('two processes with a limit of 2, 20 messages each at once: at most 2 connections, no slot left after', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock(new Date());
    const d = destinationOn(ADDRESSES[10]!, 'shared');
    const processes = [0, 1].map(() =>
      transport({
        maxConnections: 2,
        ledger: databaseDestinationLedger(db, clock, logger),
        now: () => clock.now(),
      }),
    );
    const senders = processes.map((p, n) => ({
      transport: p,
      to: Array.from({ length: 20 }, (_, i) => d.to(`p${n}-${i}`)),
    }));
    const outcomes = await deliverAll(senders, clock);
    expectAllAccepted(
      outcomes,
      senders.flatMap((s) => s.to),
    );
    // A temporary outcome here is a message that found no free slot in time: handed back, untried.
    expect(outcomes.filter((o) => o.status === 'temporary' && o.notAttempted === undefined)).toEqual([]);
    expect(sink.peakConnectionsByAddress().get(d.address)).toBeLessThanOrEqual(2);
    expect(connectionsOn(d.address).every((c) => !c.refused)).toBe(true);

    for (const p of processes) await close(p);
    await allClosedOn(d.address);
    expect(connectionsOn(d.address).every((c) => c.quit)).toBe(true);
    const slots = await db.selectFrom('destination_slots').selectAll().where('destination', '=', d.host).execute();
    expect(slots).toEqual([]);
  });

  it('a live holder renews the slots of its open sessions only: a released one is not kept alive', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock(new Date());
    const destination = `mx.renew-${randomBytes(3).toString('hex')}.destinations.test`;
    const live = databaseDestinationLedger(db, clock, logger, 20);
    const other = databaseDestinationLedger(db, clock, logger);
    try {
      expect((await live.takeSlot(destination, 2)).slot).toBe(0);
      expect((await live.takeSlot(destination, 2)).slot).toBe(1);
      await live.releaseSlot(destination, 1);
      // Close to the end of the lease, the live holder renews what it holds.
      clock.advance(SLOT_LEASE_MS - 1_000);
      const renewed = () =>
        db
          .selectFrom('destination_slots')
          .select('lease_until')
          .where('destination', '=', destination)
          .where('slot', '=', 0)
          .executeTakeFirstOrThrow();
      await expect
        .poll(async () => (await renewed()).lease_until.getTime())
        .toBe(clock.now().getTime() + SLOT_LEASE_MS);
      clock.advance(2_000);
      // Past the first lease: slot 0 is still held, slot 1 was released and is free.
      expect((await other.takeSlot(destination, 2)).slot).toBe(1);
      expect((await other.takeSlot(destination, 2)).slot).toBeNull();
    } finally {
      await live.close();
      await other.close();
    }
  });

  it('a slot whose holder died is taken again once its lease has lapsed', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock(new Date());
    const d = destinationOn(ADDRESSES[11]!, 'orphan');
    // A process takes the destination's only slot, then dies: it never releases it nor renews it.
    const dead = databaseDestinationLedger(db, clock, logger);
    expect(await dead.takeSlot(d.host, 1)).toEqual({ slot: 0, backoff: null });

    // waitMs is twice timeoutMs: a short one, so the wait for a slot that does not come is short too.
    const direct = transport({
      maxConnections: 1,
      timeoutMs: 400,
      ledger: databaseDestinationLedger(db, clock, logger),
      now: () => clock.now(),
    });
    const blocked = await sendOne(direct, d.to('blocked'));
    expect(blocked).toMatchObject(untried);
    expect(connectionsOn(d.address)).toEqual([]);

    clock.advance(SLOT_LEASE_MS + 1_000);
    expect(await sendOne(direct, d.to('through'))).toMatchObject({ status: 'accepted' });
    expect(connectionsOn(d.address)).toHaveLength(1);

    await close(direct);
    expect(await db.selectFrom('destination_slots').selectAll().where('destination', '=', d.host).execute()).toEqual(
      [],
    );
    // Only to stop its renewal timer: the row it held is no longer its own.
    await dead.close();
  });
});

// The back-off of a `direct` destination that refuses connections, stalls or answers "too fast", while a
// greylisting answer or a refused recipient leave the destination alone.
import { describe, expect, it } from 'vitest';
import type { DestinationBackoff } from '../../src/adapters/mail-transport/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
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
  TIMEOUT_MS,
  transport,
  untried,
  useDestinationsBed,
} from './direct-destinations-support.ts';

useDestinationsBed();

describe('back-off per destination', () => {
  it('a receiver that takes 2 connections while the limit is 5: every message accepted, fewer connections, waits uncounted', async () => {
    const d = destinationOn(ADDRESSES[4]!, 'capped');
    sink.setBehaviour({ maxConnections: 2 }, d.address);
    const clock = new ManualClock(new Date());
    const troubles: DestinationBackoff[] = [];
    const direct = transport({
      maxConnections: 5,
      now: () => clock.now(),
      onTrouble: (destination, backoff) => {
        expect(destination).toBe(d.host);
        troubles.push(backoff);
      },
    });
    const recipients = Array.from({ length: 20 }, (_, i) => d.to(`c${i}`));
    // A temporary outcome the worker would count as an attempt has no destinationPausedUntil: none here.
    expectAllAccepted(await deliverAll([{ transport: direct, to: recipients }], clock), recipients);
    // The receiver did refuse (421 at greeting), and the destination went down to fewer connections.
    const refused = connectionsOn(d.address).filter((c) => c.refused);
    expect(refused.length).toBeGreaterThan(0);
    expect(troubles.length).toBeGreaterThan(0);
    expect(Math.min(...troubles.map((b) => b.connections))).toBeLessThanOrEqual(2);
    expect(troubles.every((b) => /421/.test(b.reason))).toBe(true);
    // Accepted connections never went past what the receiver allows, and carried several messages each.
    const served = connectionsOn(d.address).filter((c) => !c.refused);
    expect(served.reduce((sum, c) => sum + c.messages, 0)).toBe(20);

    await close(direct);
    await allClosedOn(d.address);
    expect(served.every((c) => c.quit)).toBe(true);
  });

  it('421 at greeting to everything: temporary, the destination paused; the next message is not tried', async () => {
    const d = destinationOn(ADDRESSES[5]!, 'refusing');
    sink.setBehaviour({ maxConnections: 0 }, d.address);
    const clock = new ManualClock(new Date());
    const direct = transport({ now: () => clock.now() });

    const first = await sendOne(direct, d.to('first'));
    expect(first).toMatchObject({ status: 'temporary', responseCode: 421, host: d.host });
    expect(first.response).toMatch(/421/);
    expect(first.notAttempted).toBeUndefined();
    expect(first.destinationPausedUntil!.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(connectionsOn(d.address)).toHaveLength(1);
    expect(connectionsOn(d.address)[0]!.refused).toBe(true);

    const second = await sendOne(direct, d.to('second'));
    expect(second).toMatchObject(untried);
    expect(second.destinationPausedUntil).toEqual(first.destinationPausedUntil);
    expect(second.response).toMatch(/backed off/);
    expect(connectionsOn(d.address)).toHaveLength(1);
    expect(direct.destinations()[0]).toMatchObject({ destination: d.host, backedOff: true, postponed: 1 });
    await close(direct);
  });

  it('a receiver that never greets: temporary within about timeoutMs, the destination paused', async () => {
    const d = destinationOn(ADDRESSES[6]!, 'stalling');
    sink.setBehaviour({ stall: 'greeting' }, d.address);
    const clock = new ManualClock(new Date());
    const direct = transport({ now: () => clock.now() });

    const started = Date.now();
    const outcome = await sendOne(direct, d.to('waiting'));
    const took = Date.now() - started;
    expect(outcome.status).toBe('temporary');
    expect(outcome.destinationPausedUntil!.getTime()).toBeGreaterThan(clock.now().getTime());
    // One host, one address: one greeting timeout, not a connection per retry.
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(took).toBeLessThan(3 * TIMEOUT_MS);
    expect(connectionsOn(d.address)).toHaveLength(1);
    // The client gave up on the stalled connection and closed it.
    await sink.waitFor((s) => s.stalledCount === 0, 'the stalled connection closed');

    expect(await sendOne(direct, d.to('next'))).toMatchObject(untried);
    expect(connectionsOn(d.address)).toHaveLength(1);
    await close(direct);
  });

  it('sessions closed together with 421 are one trouble: one pause, not one per session', async () => {
    const clock = new ManualClock(new Date());
    const troubles: number[] = [];
    const direct = transport({ now: () => clock.now(), onTrouble: (_d, backoff) => troubles.push(backoff.failures) });
    const d = destinationOn(ADDRESSES[12]!, 'closing');
    sink.respond('*', { stage: 'data', code: 421, message: '4.3.2 Service shutting down' });
    const recipients = Array.from({ length: 4 }, (_, i) => d.to(`c${i}`));
    const outcomes = await Promise.all(recipients.map((to) => sendOne(direct, to)));
    expect(outcomes.every((o) => o.status === 'temporary' && o.destinationPausedUntil !== undefined)).toBe(true);
    expect(troubles).toEqual([1]);
    const pauses = new Set(outcomes.map((o) => o.destinationPausedUntil!.getTime()));
    expect(pauses.size).toBe(1);
    await close(direct);
  });

  it('a 4.7.x rate answer at RCPT pauses the destination; a 4.7.1 greylisting answer does not', async () => {
    const clock = new ManualClock(new Date());
    const direct = transport({ now: () => clock.now() });

    const rated = destinationOn(ADDRESSES[7]!, 'rated');
    const fast = rated.to('fast');
    sink.respond(fast, { stage: 'rcpt', code: 451, message: '4.7.1 Rate limit exceeded, try again in 60 seconds' });
    const slowed = await sendOne(direct, fast);
    expect(slowed).toMatchObject({ status: 'temporary', responseCode: 451 });
    expect(slowed.notAttempted).toBeUndefined();
    expect(slowed.destinationPausedUntil!.getTime()).toBeGreaterThan(clock.now().getTime());
    const behind = await sendOne(direct, rated.to('behind'));
    expect(behind).toMatchObject(untried);
    expect(sink.messages.filter((m) => m.envelope.to[0]!.endsWith(rated.domain))).toEqual([]);

    const grey = destinationOn(ADDRESSES[8]!, 'grey');
    const newcomer = grey.to('newcomer');
    sink.respond(newcomer, { stage: 'rcpt', code: 451, message: '4.7.1 greylisted, try again later' });
    const greylisted = await sendOne(direct, newcomer);
    expect(greylisted).toMatchObject({ status: 'temporary', responseCode: 451 });
    expect(greylisted.destinationPausedUntil).toBeUndefined();
    expect(greylisted.notAttempted).toBeUndefined();
    // The destination goes on: the next recipient is accepted, over the same session.
    expect(await sendOne(direct, grey.to('known'))).toMatchObject({ status: 'accepted' });
    expect(connectionsOn(grey.address)).toHaveLength(1);

    const stats = new Map(direct.destinations().map((s) => [s.destination, s]));
    expect(stats.get(rated.host)).toMatchObject({ backedOff: true });
    expect(stats.get(grey.host)).toMatchObject({ backedOff: false });
    await close(direct);
  });

  it('550 5.1.1 at RCPT: permanent, and the session carries the next message after RSET', async () => {
    const d = destinationOn(ADDRESSES[9]!, 'unknown');
    const gone = d.to('gone');
    sink.respond(gone, { stage: 'rcpt', code: 550, message: '5.1.1 <gone>: Recipient address rejected: User unknown' });
    const direct = transport();

    const refused = await sendOne(direct, gone);
    expect(refused).toMatchObject({ status: 'permanent', responseCode: 550, host: d.host });
    expect(refused.response).toMatch(/5\.1\.1/);
    expect(await sendOne(direct, d.to('here'))).toMatchObject({ status: 'accepted' });

    const [only, ...more] = connectionsOn(d.address);
    expect(more).toEqual([]);
    expect(only).toMatchObject({ messages: 1, refused: false });
    expect(direct.destinations()[0]).toMatchObject({ backedOff: false, sessions: 1 });
    await close(direct);
    await allClosedOn(d.address);
    expect(only!.quit).toBe(true);
  });
});

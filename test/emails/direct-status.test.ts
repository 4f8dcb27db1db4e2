// What an email says of its direct delivery, through the delivery worker and the HTTP API: DELIVERED
// at the moment of the receiver's 250 (not when the attempt started); a 550 5.1.1 after DATA is a hard
// bounce that suppresses the address; a destination that refuses every connection (421 at greeting)
// is backed off, listed by the admin API with why, and its email waits uncounted (attempts 0) until
// the pause is over and is then delivered; a destination that keeps being paused still bounces its
// message once 48 hours have passed since it was due.
import { describe, expect, it } from 'vitest';
import { databaseDestinationLedger } from '../../src/destinations/index.ts';
import { TEST_ADMIN_TOKEN } from '../support/app.ts';
import { emailJson, latestStatus, waitForStatus } from './delivery-support.ts';
import { useDirectBed } from './direct-bed.ts';
import { emails } from './support.ts';

const bed = useDirectBed('direct-status');
/** The sink's one address: the MX of the bed's recipient domain. */
const MX_ADDRESS = '127.0.0.1';
const HOUR = 60 * 60_000;

const statuses = (events: { status: string }[]) => events.map((e) => e.status);
/** The bed's destination: its recipient domain's one MX host. */
const destination = () => `mx.${bed.rcptDomain}`;

const admin = (url: string) =>
  bed.h.app.inject({ method: 'GET', url: `/admin/v1${url}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });

interface BackedOffJson {
  destination: string;
  paused: boolean;
  pausedUntil: string;
  connections: number;
  openConnections: number;
  failures: number;
  reason: string;
}

async function backedOff(): Promise<BackedOffJson | undefined> {
  const response = await admin('/destinations');
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as BackedOffJson[]).find((d) => d.destination === destination());
}

const emailRow = (id: string) =>
  bed.h.t.deps.db
    .selectFrom('emails')
    .select(['status', 'attempts', 'lease_until', 'run_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** Waits until the worker wrote the email's deferral back (DELIVERY_DELAYED, lease released). */
const waitForDeferral = (id: string) =>
  expect
    .poll(
      async () => {
        const row = await emailRow(id);
        const { latestStatus: latest } = (await emails(bed.h.app, bed.team.key).get(id)).json();
        return latest === 'DELIVERY_DELAYED' && row.lease_until === null;
      },
      { timeout: 10_000, interval: 20 },
    )
    .toBe(true);

/**
 * The sessions the bed's transport keeps open between messages (5 s idle) would carry a message
 * past a refusal of new connections: the tests that make the receiver refuse wait for them to end.
 */
const noSessionOpen = () => bed.sink.waitFor((s) => s.openConnections === 0, 'idle sessions ended', 15_000);

/**
 * The bed's destination is shared by every test of the file, and its back-off row by the whole
 * database: the receiver accepts again, the row goes, and the clock moves past whatever pause the
 * transport still remembers.
 */
async function forgetBackoff(): Promise<void> {
  bed.sink.setBehaviour(null, MX_ADDRESS);
  const row = await bed.h.t.deps.db
    .selectFrom('destination_backoffs')
    .select('paused_until')
    .where('destination', '=', destination())
    .executeTakeFirst();
  await bed.h.t.deps.db.deleteFrom('destination_backoffs').where('destination', '=', destination()).execute();
  if (row !== undefined) {
    const until = new Date(row.paused_until).getTime();
    const now = bed.h.t.clock.now().getTime();
    if (until >= now) bed.h.t.clock.advance(until - now + 1_000);
  }
}

describe('a backed-off destination', () => {
  it('still bounces a message deferred while its destination keeps being paused, once 48 hours have passed', async () => {
    const { h, team, sink } = bed;
    await noSessionOpen();
    sink.setBehaviour({ maxConnections: 0 }, MX_ADDRESS);
    try {
      const to = bed.recipient('stuck');
      const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'Stuck', text: 'hi' });
      await waitForDeferral(id);
      expect((await emailRow(id)).attempts).toBe(0);

      // Two days later another worker process finds the destination refusing again and pauses it.
      h.t.clock.advance(48 * HOUR + 60_000);
      const otherProcess = databaseDestinationLedger(h.t.deps.db, h.t.clock, { warn: () => {} });
      try {
        await otherProcess.recordTrouble(destination(), {
          reason: '421 4.7.0 Too many connections',
          connections: 1,
          pause: true,
        });
      } finally {
        await otherProcess.close();
      }
      expect((await backedOff())?.paused).toBe(true);
      const connectionsBefore = sink.connections.length;
      bed.runner.wake();
      await waitForStatus(h, id, 'BOUNCED');

      // Handed back untried (the destination is paused), but out of time.
      expect(sink.connections).toHaveLength(connectionsBefore);
      const email = await emailJson(h, team.key, id);
      expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'DELIVERY_DELAYED', 'BOUNCED']);
      expect(email.emailEvents[2]!.data).toMatchObject({
        recipient: to,
        bounceType: 'soft',
        reason: expect.stringMatching(/48 hours/),
        response: expect.stringMatching(/backed off/),
      });
      expect(bed.messagesOf(id)).toHaveLength(0);
    } finally {
      await forgetBackoff();
    }
  });

  it('a receiver refusing every connection: QUEUED with attempts 0, listed by the admin API, delivered after the pause', async () => {
    const { h, team, sink } = bed;
    await noSessionOpen();
    sink.setBehaviour({ maxConnections: 0 }, MX_ADDRESS);
    try {
      const to = bed.recipient('paused');
      const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'Paused', text: 'hi' });
      await waitForDeferral(id);

      // The wait is the destination's, not the message's: no attempt counted.
      const row = await emailRow(id);
      expect(row).toMatchObject({ status: 'QUEUED', attempts: 0 });
      const waiting = (await emails(h.app, team.key).get(id)).json();
      expect(waiting).toMatchObject({ latestStatus: 'DELIVERY_DELAYED', attempts: 0 });
      expect(waiting.nextAttemptAt).toBe(row.run_at.toISOString());
      const delayed = waiting.emailEvents.at(-1);
      expect(delayed.data).toMatchObject({
        recipients: [to],
        responseCode: 421,
        remoteMta: destination(),
        attempt: 0,
        nextAttemptAt: waiting.nextAttemptAt,
      });

      const listed = await backedOff();
      expect(listed).toMatchObject({ destination: destination(), paused: true, failures: 1, connections: 2 });
      expect(listed!.reason).toMatch(/421/);
      const pausedUntil = new Date(listed!.pausedUntil);
      expect(pausedUntil.getTime()).toBeGreaterThan(h.t.clock.now().getTime());
      // Not before the destination takes messages again.
      expect(new Date(waiting.nextAttemptAt).getTime()).toBeGreaterThanOrEqual(pausedUntil.getTime());
      expect(bed.messagesOf(id)).toHaveLength(0);

      sink.setBehaviour(null, MX_ADDRESS);
      h.t.clock.set(new Date(new Date(waiting.nextAttemptAt).getTime() + 1));
      bed.runner.wake();
      await waitForStatus(h, id, 'DELIVERED');
      expect(bed.messagesOf(id)).toHaveLength(1);
      const delivered = await emailJson(h, team.key, id);
      expect(statuses(delivered.emailEvents)).toEqual(['QUEUED', 'DELIVERY_DELAYED', 'DELIVERED']);
      expect((await emails(h.app, team.key).get(id)).json()).toMatchObject({
        latestStatus: 'DELIVERED',
        attempts: 1,
        nextAttemptAt: null,
      });
      // Recovering: no longer paused.
      expect((await backedOff())?.paused ?? false).toBe(false);
    } finally {
      await forgetBackoff();
    }
  });
});

describe('delivery status', () => {
  it("DELIVERED carries the time of the receiver's 250, not the time the attempt started", async () => {
    const { h, team, sink } = bed;
    sink.holdReplies();
    try {
      const sentAt = h.t.clock.now();
      const id = await emails(h.app, team.key).sent({
        from: team.from(),
        to: bed.recipient('slow'),
        subject: 'Slow MX',
        text: 'hi',
      });
      await sink.waitFor((s) => s.heldCount === 1, 'the message received, its 250 held', 10_000);
      // The receiver takes its time over the 250. Less than the worker's lease (20 s on this clock,
      // renewed every 5 s of real time): a longer jump would let the worker's other lane take the
      // email again while this attempt still waits.
      h.t.clock.advance(15_000);
      const answeredAt = h.t.clock.now();
      sink.releaseReplies();
      await waitForStatus(h, id, 'DELIVERED');

      const email = await emailJson(h, team.key, id);
      expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'DELIVERED']);
      expect(email.emailEvents[0]!.createdAt).toBe(sentAt.toISOString());
      expect(email.emailEvents[1]!.createdAt).toBe(answeredAt.toISOString());
      expect(bed.messagesOf(id)).toHaveLength(1);
    } finally {
      sink.releaseReplies();
    }
  });

  it('550 5.1.1 after DATA: BOUNCED as hard, the address suppressed, the next send to it SUPPRESSED', async () => {
    // The same answer at RCPT is session-bounces.test.ts's.
    const { h, team, sink } = bed;
    const gone = bed.recipient('gone-after-data');
    sink.respond(gone, { stage: 'data', code: 550, message: '5.1.1 <gone>: Recipient address rejected: User unknown' });
    const id = await emails(h.app, team.key).sent({ from: team.from(), to: gone, subject: 'Hi', text: 'hi' });
    await waitForStatus(h, id, 'BOUNCED');

    const email = await emailJson(h, team.key, id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'BOUNCED']);
    expect(email.emailEvents[1]!.data).toMatchObject({
      recipient: gone,
      bounceType: 'hard',
      responseCode: 550,
      status: '5.1.1',
      remoteMta: destination(),
    });
    expect(bed.messagesOf(id)).toHaveLength(0);

    const suppression = await admin(`/teams/${team.id}/suppressions/${encodeURIComponent(gone)}`);
    expect(suppression.statusCode, suppression.body).toBe(200);
    expect(suppression.json()).toMatchObject({ email: gone, reason: 'HARD_BOUNCE', emailId: id });

    const again = await emails(h.app, team.key).sent({ from: team.from(), to: gone, subject: 'Again', text: 'hi' });
    expect(await latestStatus(h, again)).toBe('SUPPRESSED');
    expect(bed.messagesOf(again)).toHaveLength(0);
  });
});

// Crash safety of delivery: kill -9 the process that runs the delivery worker in the middle of a
// batch, start another one, and every email is still sent exactly once; emails scheduled before the
// kill survive it and go once, at their time.
//
// The SMTP sink (plain SMTP: the relay transport checks certificates, and the sink's is self-signed)
// accepts the first 15 messages, then holds its 250 replies. The worker then has a batch in flight:
// some of its emails accepted and written SENT, some received by the sink but waiting for their 250.
// Once every accepted message is SENT in the database, the worker is killed; the sink sees the held
// connections close and never accepts those messages. The killed worker's leases are expired by hand
// (standing for the lease time passing) and a new process sends the rest.
//
// What this proves is the property on both sides of the acceptance point: an email whose 250 the
// worker saw is never sent again, and an email whose 250 it did not see is sent once more. The one
// moment it cannot cover is a kill between the relay's 250 and the commit of SENT: that email goes
// out twice (at least once, with the same Message-ID); no SMTP client can close that window.
//
// The database is the embedded one in a data directory, or, with DATABASE_URL set, a fresh database
// on that server created for this test and dropped after it.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import { MailTestServices, sinkHeader, startMailHerald } from '../support/mail-herald.ts';
import {
  cleanUpHeralds,
  http,
  startHerald,
  waitForExit,
  waitForHealthy,
  until,
  withHeraldLogs,
} from '../support/spawn.ts';

const EMAILS = 60;
/** Messages the sink accepts before it starts holding its replies. */
const ACCEPTED_BEFORE_HOLD = 15;
const MAIL_DOMAIN = 'mail.herald.test';
/** Scheduled emails queued with the batch, due this long after it. */
const SCHEDULED = 3;
const SCHEDULED_IN_MS = 15_000;

const services = new MailTestServices();

afterEach(async () => {
  await cleanUpHeralds();
  await services.close();
});

// Through a relay (SENT at its 250) and as the MTA, the sink being the MX (DELIVERED at its 250, over
// pooled sessions whose connection slots the killed process held).
describe.each([
  { transport: 'relay', direct: false, sent: 'SENT' },
  { transport: 'direct', direct: true, sent: 'DELIVERED' },
])('SIGKILL of the delivery worker mid-batch ($transport)', { timeout: 240_000 }, ({ direct, sent: SENT }) => {
  it('sends every email exactly once', () =>
    withHeraldLogs(async (started) => {
      const t0 = performance.now();
      const phases: string[] = [];
      const phase = (name: string) => phases.push(`${name} ${Math.round(performance.now() - t0)}ms`);
      const { sink, dns, databaseUrl } = await services.start('delivery_crash');
      // `herald start` runs the API and the workers (delivery included) in one process: the embedded
      // data directory admits one process only, so this is the process that is killed.
      const herald = await startMailHerald(started, {
        teamName: 'delivery crash',
        sink,
        dns,
        mailDomain: MAIL_DOMAIN,
        databaseUrl,
        direct,
      });
      const { port, key, domainName, env, dataDir } = herald;
      const first = herald.process;
      phase('domain verified');
      sink.holdReplies({ afterRecorded: ACCEPTED_BEFORE_HOLD });
      const nonce = randomBytes(4).toString('hex');
      const batch = Array.from({ length: EMAILS }, (_, i) => ({
        from: `Crash test <hello@${domainName}>`,
        to: `rcpt-${i}@example.test`,
        subject: `crash ${nonce} ${i}`,
        text: `Email ${i} of ${EMAILS}.`,
      }));
      const queued = await http(port, 'POST', '/api/v1/emails/batch', key, batch);
      expect(queued.status, queued.text).toBe(200);
      const ids = (queued.body as { data: { emailId: string }[] }).data.map((entry) => entry.emailId);
      expect(ids).toHaveLength(EMAILS);
      const subjectOf = new Map(ids.map((id, i) => [id, batch[i]!.subject]));
      // Scheduled emails queued before the kill: they wait for their time, survive the restart and go once.
      const scheduledAt = new Date(Date.now() + SCHEDULED_IN_MS);
      const scheduledBatch = Array.from({ length: SCHEDULED }, (_, i) => ({
        ...batch[0]!,
        to: `later-${i}@example.test`,
        subject: `later ${nonce} ${i}`,
        scheduledAt: scheduledAt.toISOString(),
      }));
      const scheduledQueued = await http(port, 'POST', '/api/v1/emails/batch', key, scheduledBatch);
      expect(scheduledQueued.status, scheduledQueued.text).toBe(200);
      const scheduledIds = (scheduledQueued.body as { data: { emailId: string }[] }).data.map((entry) => entry.emailId);
      const messageIdOf = (id: string) => `<${id}@${MAIL_DOMAIN}>`;
      const emailOf = new Map([...ids, ...scheduledIds].map((id) => [messageIdOf(id), id]));

      // The worker is mid-batch: some messages accepted, the next ones received but not yet answered.
      await sink.waitFor((s) => s.heldCount > 0, 'a held reply', 60_000);
      expect(sink.messages).toHaveLength(ACCEPTED_BEFORE_HOLD);
      // Whatever the worker saw accepted, it has written: every accepted message's email is SENT.
      const accepted = sink.messages.map((message) => emailOf.get(sinkHeader(message, 'Message-ID'))!);
      expect(accepted).not.toContain(undefined);
      await until('accepted emails written SENT', 30_000, async () => {
        for (const id of accepted) {
          const email = await http(port, 'GET', `/api/v1/emails/${id}`, key);
          if (!(email.body as { emailEvents: { status: string }[] }).emailEvents.some((event) => event.status === SENT))
            return undefined;
        }
        return true;
      });
      // A moment for the other connections of the batch to reach their held reply too.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const heldAtKill = sink.heldCount;

      phase('accepted written');
      first.kill('SIGKILL');
      expect(await waitForExit(first, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      // The sink notices the killed client's connections close; their messages were never accepted.
      await sink.waitFor((s) => s.heldCount === 0 && s.openConnections === 0, 'held connections closed', 10_000);
      sink.releaseReplies();
      expect(sink.messages).toHaveLength(ACCEPTED_BEFORE_HOLD);
      expect(sink.abandoned.length).toBeGreaterThanOrEqual(heldAtKill);
      expect(sink.abandoned.length).toBeGreaterThan(0);
      const abandonedIds = sink.abandoned.map((message) => emailOf.get(sinkHeader(message, 'Message-ID'))!);

      // The killed worker's leases would expire after DELIVERY_LEASE_MS; moving them into the past
      // stands for that time passing. No herald process is running now, so the test may open the database itself.
      phase('killed');
      const database = await connectDatabase({ databaseUrl, dataDir });
      let leased: number;
      try {
        const held = await sql<{
          id: string;
        }>`SELECT id FROM emails WHERE lease_until IS NOT NULL AND status IN ('QUEUED', 'SCHEDULED')`.execute(
          database.db,
        );
        leased = held.rows.length;
        // Every email the sink abandoned was in a batch the dead worker still held.
        expect(held.rows.map((row) => row.id)).toEqual(expect.arrayContaining(abandonedIds));
        await sql`UPDATE emails SET lease_until = now() - interval '1 second' WHERE lease_until IS NOT NULL`.execute(
          database.db,
        );
        // The dead process's connection slots lapse the same way.
        await sql`UPDATE destination_slots SET lease_until = now() - interval '1 second'`.execute(database.db);
      } finally {
        await database.close();
      }
      expect(leased).toBeGreaterThan(0);

      phase('leases expired');
      const second = startHerald(['start'], env);
      started.push(second);
      await waitForHealthy(second, port, 120_000);
      await until(`all ${EMAILS} emails SENT`, 120_000, async () => {
        const list = await http(port, 'GET', '/api/v1/emails?limit=100', key);
        const statuses = new Map(
          (list.body as { data: { id: string; latestStatus: string | null }[] }).data.map((email) => [
            email.id,
            email.latestStatus,
          ]),
        );
        return ids.every((id) => statuses.get(id) === SENT) ? true : undefined;
      });

      phase('all sent');
      await until(`the ${SCHEDULED} scheduled emails SENT`, 120_000, async () => {
        const list = await http(port, 'GET', '/api/v1/emails?limit=100', key);
        const statuses = new Map(
          (list.body as { data: { id: string; latestStatus: string | null }[] }).data.map((email) => [
            email.id,
            email.latestStatus,
          ]),
        );
        return scheduledIds.every((id) => statuses.get(id) === SENT) ? true : undefined;
      });
      phase('scheduled sent');
      for (const id of scheduledIds) {
        const copies = sink.messages.filter((message) => sinkHeader(message, 'Message-ID') === messageIdOf(id));
        expect(copies, `copies of scheduled ${id}`).toHaveLength(1);
        // Sent at its time, not before (the Date header is the moment the worker built the message).
        expect(new Date(sinkHeader(copies[0]!, 'Date')).getTime()).toBeGreaterThanOrEqual(scheduledAt.getTime() - 1000);
      }
      // Exactly once, by Message-ID and by subject; nothing else reached the sink.
      const seen = new Map<string, number>();
      const subjects = new Map<string, number>();
      for (const message of sink.messages) {
        const messageId = sinkHeader(message, 'Message-ID');
        seen.set(messageId, (seen.get(messageId) ?? 0) + 1);
        const subject = sinkHeader(message, 'Subject');
        subjects.set(subject, (subjects.get(subject) ?? 0) + 1);
      }
      const duplicates = [...seen].filter(([, count]) => count > 1).map(([messageId]) => messageId);
      expect(duplicates, 'sent more than once').toEqual([]);
      expect(
        ids.filter((id) => seen.get(messageIdOf(id)) !== 1),
        'not sent exactly once',
      ).toEqual([]);
      expect(
        ids.filter((id) => subjects.get(subjectOf.get(id)!) !== 1),
        'subject not seen exactly once',
      ).toEqual([]);
      expect(sink.messages).toHaveLength(EMAILS + SCHEDULED);
      for (const id of ids) {
        const email = await http(port, 'GET', `/api/v1/emails/${id}`, key);
        expect(email.status).toBe(200);
        const sent = (email.body as { emailEvents: { status: string }[] }).emailEvents.filter(
          (event) => event.status === SENT,
        );
        expect(sent, `SENT events of ${id}`).toHaveLength(1);
      }
      expect(second.hasExited()).toBe(false);
      console.info(
        `delivery-crash: ${databaseUrl === null ? 'embedded' : 'postgres'}; accepted before kill ${ACCEPTED_BEFORE_HOLD}, held at kill ${heldAtKill}, ` +
          `abandoned ${sink.abandoned.length}, leased at kill ${leased}, total accepted ${sink.messages.length}; ${phases.join(', ')}`,
      );
    }));
});

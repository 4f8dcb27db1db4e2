// Exactly once for inbox mail: a message answered 250 is in the spool; whether the listener's own
// processing or the worker's inbound-messages queue records it (the listener was killed after the
// 250), it is stored once (with its email.received, in the same transaction) and its spool row is gone. A message for an
// inbox and a bounce return path at once goes to both.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { INBOUND_QUEUE, inboundMessagesQueue } from '../../src/mx/inbound-queue.ts';
import { createInboundSpool, SPOOL_HANDOFF_MS } from '../../src/mx/spool.ts';
import { inboxIntakeOf } from '../../src/inboxes/index.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { bouncePath, dsn, sentEmail, stateOf, unique } from '../feedback/support.ts';
import { adminRequest } from '../support/factory.ts';
import { MAIL_DOMAIN, plainMessage, uniqueLocal } from './support.ts';

let h: EmailHarness;
beforeAll(async () => {
  h = await startEmailHarness();
}, 180_000);
afterAll(async () => h?.close());

/** The worker's inbound-messages queue, with this harness's inbox intake. */
function intakeQueue() {
  const { deps, clock } = h.t;
  return inboundMessagesQueue({
    db: deps.db,
    secrets: deps.secrets,
    clock,
    mailDomain: MAIL_DOMAIN,
    metrics: deps.metrics,
    inbox: inboxIntakeOf(deps),
  });
}

it('stores a message the listener left in the spool once, through the queue, even with two workers', async () => {
  const { deps, clock } = h.t;
  const team = await h.team();
  const inbox = await adminRequest(h.app, 'POST', `/teams/${team.id}/inboxes`, {
    name: 'Once',
    address: `${uniqueLocal('once')}@${MAIL_DOMAIN}`,
  });
  const spool = createInboundSpool({ db: deps.db, clock });
  // Spooled and answered 250, then the listener died: nothing took it from memory.
  const subject = `once ${uniqueLocal()}`;
  await spool.store({
    mailFrom: 'alice@sender.test',
    rcptTo: [inbox.address],
    remoteAddress: '127.0.0.1',
    raw: plainMessage({ to: inbox.address, subject }),
    secure: false,
  });
  clock.advance(SPOOL_HANDOFF_MS);
  // Two workers at once: one of them takes it.
  const runners = [0, 1].map(
    () => new QueueRunner({ database: deps.database, queues: [intakeQueue()], clock, pollMs: 60_000 }),
  );
  await Promise.all(runners.map((r) => r.start()));
  await Promise.all(runners.map((r) => r.idle(INBOUND_QUEUE)));
  await Promise.all(runners.map((r) => r.stop()));
  const stored = await deps.db
    .selectFrom('inbox_messages')
    .select(['id', 'remote_address'])
    .where('subject', '=', subject)
    .execute();
  expect(stored).toHaveLength(1);
  expect(stored[0]!.remote_address).toBe('127.0.0.1');
  const left = await sql<{
    n: string;
  }>`SELECT count(*) AS n FROM inbound_messages WHERE ${subject} = ANY(rcpt_to) OR convert_from(raw, 'UTF8') LIKE ${'%' + subject + '%'}`.execute(
    deps.db,
  );
  expect(Number(left.rows[0]!.n)).toBe(0);
});

it('routes one message to an inbox and to a bounce return path at once', async () => {
  const { deps, clock } = h.t;
  const team = await h.team();
  const inbox = await adminRequest(h.app, 'POST', `/teams/${team.id}/inboxes`, {
    name: 'Both',
    address: `${uniqueLocal('both')}@${MAIL_DOMAIN}`,
  });
  const recipient = unique('gone');
  const emailId = await sentEmail(h, team, recipient);
  const path = bouncePath(h, team, emailId);
  const spool = createInboundSpool({ db: deps.db, clock });
  await spool.store({
    mailFrom: '',
    rcptTo: [path, inbox.address],
    remoteAddress: '127.0.0.1',
    raw: dsn(recipient, 'failed', '5.1.1', '550 5.1.1 User unknown'),
    secure: false,
  });
  clock.advance(SPOOL_HANDOFF_MS);
  const runner = new QueueRunner({
    database: deps.database,
    queues: [intakeQueue()],
    clock,
    pollMs: 60_000,
  });
  await runner.start();
  await runner.idle(INBOUND_QUEUE);
  await runner.stop();
  expect((await stateOf(h, team.id, emailId)).status).toBe('BOUNCED');
  const stored = await deps.db
    .selectFrom('inbox_messages')
    .select('subject')
    .where('inbox_id', '=', inbox.id)
    .execute();
  expect(stored).toEqual([{ subject: 'Undelivered Mail Returned to Sender' }]);
});

// The listener's own processing of what it spooled (spool-processor.ts): right after the 250, from
// memory, many messages to a transaction that records their reports in arrival order and deletes
// their rows. What it does not finish stays in the spool for the inbound-messages queue, which takes
// it once due: a message the database refuses, messages past the backlog limit, and a row the queue
// claimed first (recorded by exactly one of the two).
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../src/mx/smtp-listener.ts';
import {
  createSpoolProcessor,
  defaultSpoolProcessorLimits,
  type SpoolProcessor,
  type SpoolProcessorLimits,
} from '../../src/mx/spool-processor.ts';
import { SPOOL_HANDOFF_MS, type InboundSpool } from '../../src/mx/spool.ts';
import type { EmailHarness, SendingTeam } from '../emails/support.ts';
import { bouncePath, dsn, MAIL_DOMAIN, sentEmail, stateOf, unique } from '../feedback/support.ts';
import { inboundTestBed, startInboundQueue } from './support.ts';

const bed = inboundTestBed();
let h: EmailHarness;
let spool: InboundSpool;
beforeAll(() => {
  ({ h, spool } = bed);
});

function processor(limits: Partial<SpoolProcessorLimits> = {}): SpoolProcessor {
  const { deps } = h.t;
  return createSpoolProcessor(
    {
      db: deps.db,
      secrets: deps.secrets,
      clock: h.t.clock,
      mailDomain: MAIL_DOMAIN,
      metrics: deps.metrics,
      logger: deps.logger,
    },
    { ...defaultSpoolProcessorLimits, ...limits },
  );
}

/** What the listener does with a message: spool it (the 250 waits for this), then hand it over. */
async function receive(p: SpoolProcessor, message: InboundMessage): Promise<{ id: string; taken: boolean }> {
  const id = await spool.store(message);
  return { id, taken: p.take({ id, mailFrom: message.mailFrom, rcptTo: message.rcptTo, raw: message.raw }) };
}

/** The worker's part, once the spooled rows are due: everything due is recorded, then it stops. */
async function runQueue(): Promise<void> {
  await (await startInboundQueue(h)).stop();
}

const bounce = (
  path: string,
  address: string,
  status = '5.1.1',
  diagnostic = '550 5.1.1 User unknown',
): InboundMessage => ({
  mailFrom: '',
  rcptTo: [path],
  remoteAddress: '192.0.2.9',
  raw: dsn(address, 'failed', status, diagnostic),
  secure: false,
});

async function bounceable(team: SendingTeam, address = unique('reader')) {
  const id = await sentEmail(h, team, address);
  return { id, address, path: bouncePath(h, team, id) };
}

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const values = (await h.t.deps.metrics.getSingleMetric(name)?.get())?.values ?? [];
  return values
    .filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))
    .reduce((sum, v) => sum + v.value, 0);
}

const spooledIds = async () =>
  (await h.t.deps.db.selectFrom('inbound_messages').select('id').orderBy('id').execute()).map((row) => String(row.id));
const statusOf = async (team: SendingTeam, emailId: string) => (await stateOf(h, team.id, emailId)).status;
const clearSpool = () => h.t.deps.db.deleteFrom('inbound_messages').execute();

describe('the listener processing what it spooled', () => {
  it('records the reports in arrival order and deletes their rows', async () => {
    const team = await h.team();
    const shared = await bounceable(team);
    const other = await bounceable(team);
    const p = processor();
    // A bounce, then a late delay of the same address (which must not hide it), then another bounce.
    for (const message of [
      bounce(shared.path, shared.address),
      bounce(shared.path, shared.address, '4.2.2', '452 4.2.2 Mailbox full'),
      bounce(other.path, other.address),
    ]) {
      expect((await receive(p, message)).taken).toBe(true);
    }
    await p.drained();
    expect(await spooledIds()).toEqual([]);
    const state = await stateOf(h, team.id, shared.id);
    expect(state.status).toBe('BOUNCED');
    expect(state.events.map((e) => e.status).slice(-2)).toEqual(['BOUNCED', 'DELIVERY_DELAYED']);
    expect(state.suppressions.map((s) => s.email).sort()).toEqual([shared.address, other.address].sort());
    expect(await statusOf(team, other.id)).toBe('BOUNCED');
  });

  it('a message the database refuses is left to the queue; the rest of its batch is recorded', async () => {
    const team = await h.team();
    const good = [await bounceable(team), await bounceable(team)];
    const bad = await bounceable(team);
    const p = processor();
    const failedBefore = await metric('herald_inbound_left_to_queue_total', { reason: 'failed' });
    await receive(p, bounce(good[0]!.path, good[0]!.address));
    // PostgreSQL's jsonb takes no \u0000: this report's event cannot be stored.
    const refused = await receive(p, bounce(bad.path, bad.address, '5.1.1', '550 5.1.1 User\u0000unknown'));
    await receive(p, bounce(good[1]!.path, good[1]!.address));
    await p.drained();
    for (const g of good) expect(await statusOf(team, g.id)).toBe('BOUNCED');
    expect(await statusOf(team, bad.id)).toBe('SENT');
    expect(await metric('herald_inbound_left_to_queue_total', { reason: 'failed' })).toBe(failedBefore + 1);
    // Untouched, as the spool wrote it: the queue's when due.
    expect(await spooledIds()).toEqual([refused.id]);
    const row = await h.t.deps.db.selectFrom('inbound_messages').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 0, lease_until: null, failed_at: null });
    expect(row.due_at.getTime()).toBe(row.received_at.getTime() + SPOOL_HANDOFF_MS);
    await clearSpool();
  });

  it('past its backlog limit it takes nothing more; the queue records those once due', async () => {
    const team = await h.team();
    const emails = await Promise.all([1, 2, 3, 4].map(() => bounceable(team)));
    const p = processor({ maxBacklog: 2 });
    const messages = emails.map((e) => bounce(e.path, e.address));
    // Spooled first, then handed over together: the first batch is in the database while the
    // second waits, and the backlog is full.
    const ids = await Promise.all(messages.map((m) => spool.store(m)));
    const fullBefore = await metric('herald_inbound_left_to_queue_total', { reason: 'backlog_full' });
    const taken = ids.map((id, i) => p.take({ id, mailFrom: '', rcptTo: messages[i]!.rcptTo, raw: messages[i]!.raw }));
    expect(taken).toEqual([true, true, false, false]);
    expect(await metric('herald_inbound_backlog')).toBe(2);
    expect(await metric('herald_inbound_left_to_queue_total', { reason: 'backlog_full' })).toBe(fullBefore + 2);
    await p.drained();
    expect(await metric('herald_inbound_backlog')).toBe(0);
    expect(await Promise.all(emails.map((e) => statusOf(team, e.id)))).toEqual(['BOUNCED', 'BOUNCED', 'SENT', 'SENT']);
    expect(new Set(await spooledIds())).toEqual(new Set(ids.slice(2)));

    await runQueue();
    expect(await spooledIds()).toEqual([]);
    expect(await Promise.all(emails.map((e) => statusOf(team, e.id)))).toEqual([
      'BOUNCED',
      'BOUNCED',
      'BOUNCED',
      'BOUNCED',
    ]);
  });

  it('bounds the bytes it holds as well as the messages', async () => {
    const team = await h.team();
    const first = await bounceable(team);
    const second = await bounceable(team);
    const m1 = bounce(first.path, first.address);
    const m2 = bounce(second.path, second.address);
    const p = processor({ maxBacklogBytes: m1.raw.length + m2.raw.length - 1 });
    const [id1, id2] = await Promise.all([spool.store(m1), spool.store(m2)]);
    expect(p.take({ id: id1!, mailFrom: '', rcptTo: m1.rcptTo, raw: m1.raw })).toBe(true);
    expect(p.take({ id: id2!, mailFrom: '', rcptTo: m2.rcptTo, raw: m2.raw })).toBe(false);
    await p.drained();
    // Once the first is recorded its bytes are free again.
    expect(p.take({ id: id2!, mailFrom: '', rcptTo: m2.rcptTo, raw: m2.raw })).toBe(true);
    await p.drained();
    expect([await statusOf(team, first.id), await statusOf(team, second.id)]).toEqual(['BOUNCED', 'BOUNCED']);
    expect(await spooledIds()).toEqual([]);
  });

  it('a row the queue claimed first is recorded once, by the queue', async () => {
    const team = await h.team();
    const email = await bounceable(team);
    const message = bounce(email.path, email.address);
    const id = await spool.store(message);
    // As if a worker had claimed it (the listener was slow past SPOOL_HANDOFF_MS); its lease runs out later.
    await sql`UPDATE inbound_messages SET lease_until = ${new Date(h.t.clock.now().getTime() + 1000)} WHERE id = ${id}::bigint`.execute(
      h.t.deps.db,
    );
    const p = processor();
    expect(p.take({ id, mailFrom: '', rcptTo: message.rcptTo, raw: message.raw })).toBe(true);
    await p.drained();
    expect(await statusOf(team, email.id)).toBe('SENT');
    expect(await spooledIds()).toEqual([id]);

    await runQueue();
    const state = await stateOf(h, team.id, email.id);
    expect(state.status).toBe('BOUNCED');
    expect(state.events.filter((e) => e.status === 'BOUNCED')).toHaveLength(1);
    expect(await spooledIds()).toEqual([]);
  });
});

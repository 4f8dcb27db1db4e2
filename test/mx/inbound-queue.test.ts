// The inbound spool and its queue: the spool stores the message exactly as received (that commit is
// what the 250 waits for) and due for the queue only SPOOL_HANDOFF_MS later (the listener acts on it
// first: spool-processor.test.ts); the queue, the way back for whatever a listener did not finish,
// records the reports of a batch in one transaction with the same results as one by one, deletes
// the rows it recorded, lets a message the database refuses fail alone (retried, then kept as
// failed), and drops what is not a report of ours, counted.
import { beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_QUEUE } from '../../src/mx/inbound-queue.ts';
import type { InboundMessage } from '../../src/mx/smtp-listener.ts';
import { SPOOL_HANDOFF_MS, type InboundSpool } from '../../src/mx/spool.ts';
import type { EmailHarness, SendingTeam } from '../emails/support.ts';
import {
  bouncePath,
  crlf,
  dsn,
  MAIL_DOMAIN,
  sentEmail as sentEmailOf,
  stateOf as stateOfEmail,
  unique,
} from '../feedback/support.ts';
import { inboundTestBed, startInboundQueue } from './support.ts';

const bed = inboundTestBed();
let h: EmailHarness;
let spool: InboundSpool;
beforeAll(() => {
  ({ h, spool } = bed);
});

const processSpool = () => startInboundQueue(h);

const message = (rcptTo: string, raw: Buffer, mailFrom = ''): InboundMessage => ({
  mailFrom,
  rcptTo: [rcptTo],
  remoteAddress: '192.0.2.7',
  raw,
  secure: false,
});

function arf(mailFrom: string, rcpt: string, emailId: string): Buffer {
  return crlf(`From: feedback@fbl.example.net
Subject: complaint
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="F"

--F
Content-Type: message/feedback-report

Feedback-Type: abuse
Original-Mail-From: <${mailFrom}>
Original-Rcpt-To: <${rcpt}>

--F
Content-Type: text/rfc822-headers

Message-ID: <${emailId}@${MAIL_DOMAIN}>
To: ${rcpt}

--F--
`);
}

async function sentEmail(team: SendingTeam, to: string): Promise<{ id: string; path: string }> {
  const id = await sentEmailOf(h, team, to);
  return { id, path: bouncePath(h, team, id) };
}

async function stateOf(teamId: number, emailId: string) {
  const state = await stateOfEmail(h, teamId, emailId);
  return { ...state, events: state.events.map((e) => e.status) };
}

const spooled = () => h.t.deps.db.selectFrom('inbound_messages').selectAll().orderBy('id').execute();
const failed = (recipient: string, status: string, diagnostic: string) => dsn(recipient, 'failed', status, diagnostic);

async function feedbackCount(outcome: string, reason = 'none'): Promise<number> {
  const metric = await h.t.deps.metrics.getSingleMetric('herald_feedback_reports_total')?.get();
  return (metric?.values ?? [])
    .filter((v) => v.labels.outcome === outcome && v.labels.reason === reason)
    .reduce((sum, v) => sum + v.value, 0);
}

describe('inbound spool', () => {
  it('stores the message exactly as received, with its envelope, before store() resolves with its id', async () => {
    // Every byte value, CRLFs and a NUL included: the body is kept as bytes, never as text.
    const raw = Buffer.concat([crlf('Subject: bytes\n\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);
    const id = await spool.store({
      mailFrom: 'mailer-daemon@mx.example.org',
      rcptTo: ['a@x.test', 'b@x.test'],
      remoteAddress: '2001:db8::1',
      raw,
      secure: true,
    });
    const [row, ...rest] = await spooled();
    expect(rest).toEqual([]);
    expect(String(row!.id)).toBe(id);
    expect(Buffer.from(row!.raw).equals(raw)).toBe(true);
    expect(row).toMatchObject({
      mail_from: 'mailer-daemon@mx.example.org',
      rcpt_to: ['a@x.test', 'b@x.test'],
      remote_address: '2001:db8::1',
      secure: true,
      attempts: 0,
      failed_at: null,
    });
    expect(row!.received_at).toEqual(h.t.clock.now());
    // The queue's only after the listener had its time to act on it.
    expect(row!.due_at).toEqual(new Date(h.t.clock.now().getTime() + SPOOL_HANDOFF_MS));
    await h.t.deps.db.deleteFrom('inbound_messages').execute();
  });

  it('messages stored together share an INSERT; each keeps its own bytes and gets its own id', async () => {
    const bodies = Array.from({ length: 20 }, (_, i) => crlf(`Subject: ${i}\n\n${'x'.repeat(i * 100)}\n`));
    const ids = await Promise.all(bodies.map((raw, i) => spool.store(message(`r${i}@x.test`, raw))));
    const rows = await spooled();
    expect(rows.map((row) => row.rcpt_to[0]).sort()).toEqual(bodies.map((_, i) => `r${i}@x.test`).sort());
    for (const row of rows)
      expect(Buffer.from(row.raw).equals(bodies[Number(row.rcpt_to[0]!.slice(1, -'@x.test'.length))]!)).toBe(true);
    // Each store() answered with its own message's row.
    const byId = new Map(rows.map((row) => [String(row.id), row.rcpt_to[0]]));
    expect(ids.map((id) => byId.get(id))).toEqual(bodies.map((_, i) => `r${i}@x.test`));
    await h.t.deps.db.deleteFrom('inbound_messages').execute();
  });
});

describe('inbound-messages queue', () => {
  it('records a batch as one by one would, in arrival order, and deletes the rows', async () => {
    const team = await h.team();
    const shared = unique('shared');
    const first = await sentEmail(team, shared);
    const second = await sentEmail(team, shared);
    const others = await Promise.all(
      [1, 2, 3, 4, 5].map(async () => {
        const address = unique('gone');
        return { address, ...(await sentEmail(team, address)) };
      }),
    );
    // One at a time, so that their order in the spool is the arrival order.
    for (const m of [
      message(first.path, failed(shared, '5.1.1', '550 5.1.1 User unknown')),
      message(first.path, failed(shared, '4.2.2', '452 4.2.2 Mailbox full')),
      message(`fbl@${MAIL_DOMAIN}`, arf(first.path, shared, first.id), 'feedback@fbl.example.net'),
      message(second.path, failed(shared, '5.1.1', '550 5.1.1 User unknown')),
      ...others.map((o) => message(o.path, failed(o.address, '5.1.1', '550 5.1.1 User unknown'))),
    ])
      await spool.store(m);
    const bouncedBefore = await feedbackCount('bounced');

    const runner = await processSpool();
    await runner.stop();

    expect(await spooled()).toEqual([]);
    expect(await feedbackCount('bounced')).toBe(bouncedBefore + 2 + others.length);
    // The late delay does not hide BOUNCED; the complaint replaces it, as in arrival order.
    const state = await stateOf(team.id, first.id);
    expect(state.status).toBe('COMPLAINED');
    expect(state.events.slice(-3)).toEqual(['BOUNCED', 'DELIVERY_DELAYED', 'COMPLAINED']);
    expect(state.suppressions).toContainEqual({ email: shared, reason: 'COMPLAINT', email_id: first.id });
    expect(state.suppressions).toHaveLength(1 + others.length);
    expect((await stateOf(team.id, second.id)).status).toBe('BOUNCED');
    for (const o of others) expect((await stateOf(team.id, o.id)).status).toBe('BOUNCED');
  });

  it('drops what is not a report of ours, counted, and keeps nothing of it', async () => {
    const unrecognisedBefore = await feedbackCount('ignored', 'unrecognised');
    const unknownBefore = await feedbackCount('ignored', 'unknown-email');
    await spool.store(
      message(`postmaster@${MAIL_DOMAIN}`, crlf('Subject: hello\n\nJust saying hi.\n'), 'someone@example.org'),
    );
    await spool.store(message(`postmaster@${MAIL_DOMAIN}`, failed('a@example.org', '5.1.1', '550 unknown')));
    const runner = await processSpool();
    await runner.stop();
    expect(await spooled()).toEqual([]);
    expect(await feedbackCount('ignored', 'unrecognised')).toBe(unrecognisedBefore + 1);
    expect(await feedbackCount('ignored', 'unknown-email')).toBe(unknownBefore + 1);
  });

  it('a message the database refuses fails alone: retried later, then kept as failed', async () => {
    const team = await h.team();
    const good = await Promise.all(
      [1, 2, 3].map(async () => {
        const address = unique('fine');
        return { address, ...(await sentEmail(team, address)) };
      }),
    );
    const badAddress = unique('nul');
    const bad = await sentEmail(team, badAddress);
    await spool.store(message(good[0]!.path, failed(good[0]!.address, '5.1.1', '550 5.1.1 User unknown')));
    await spool.store(message(good[1]!.path, failed(good[1]!.address, '5.1.1', '550 5.1.1 User unknown')));
    // PostgreSQL's jsonb takes no \u0000: this event cannot be stored, so this message cannot be recorded.
    await spool.store(message(bad.path, failed(badAddress, '5.1.1', '550 5.1.1 User\u0000unknown')));
    await spool.store(message(good[2]!.path, failed(good[2]!.address, '5.1.1', '550 5.1.1 User unknown')));

    const runner = await processSpool();
    for (const g of good) expect((await stateOf(team.id, g.id)).status).toBe('BOUNCED');
    expect((await stateOf(team.id, bad.id)).status).toBe('SENT');
    const [left, ...more] = await spooled();
    expect(more).toEqual([]);
    expect(left!.rcpt_to).toEqual([bad.path]);
    expect(left).toMatchObject({ attempts: 1, failed_at: null, lease_until: null });
    expect(left!.last_error).toMatch(/unicode|\\u0000|null/i);
    expect(left!.due_at.getTime()).toBeGreaterThan(h.t.clock.now().getTime());

    // Each later attempt fails the same way; after the fifth the message is kept, marked failed.
    for (let attempt = 2; attempt <= 5; attempt++) {
      h.t.clock.advance(60 * 60_000);
      runner.wake();
      await runner.idle(INBOUND_QUEUE);
    }
    const [kept] = await spooled();
    expect(kept).toMatchObject({ attempts: 5, lease_until: null });
    expect(kept!.failed_at).toEqual(h.t.clock.now());
    h.t.clock.advance(24 * 60 * 60_000);
    await runner.idle(INBOUND_QUEUE);
    expect((await spooled())[0]!.attempts).toBe(5);
    expect((await stateOf(team.id, bad.id)).status).toBe('SENT');
    await runner.stop();
    await h.t.deps.db.deleteFrom('inbound_messages').execute();
  });
});

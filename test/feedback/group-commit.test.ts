// createFeedbackApplier, the SMTP listener's path: reports that arrive together are recorded in
// shared transactions with the same result as one by one, and a report the database refuses fails
// alone (its sender gets 451 and retries) while the others of its batch are recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeedbackApplier, type FeedbackDeps } from '../../src/feedback/index.ts';
import { startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import { bouncePath, crlf, dsn, envelopeTo, MAIL_DOMAIN, sentEmail as sentEmailOf, stateOf as stateOfEmail, unique } from './support.ts';


let h: EmailHarness;
let deps: FeedbackDeps;
beforeAll(async () => {
  h = await startEmailHarness();
  deps = { db: h.t.deps.db, secrets: h.t.deps.secrets, clock: h.t.clock, mailDomain: MAIL_DOMAIN };
});
afterAll(async () => h.close());

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

const failed = (recipient: string, status: string, diagnostic: string) => dsn(recipient, 'failed', status, diagnostic);

describe('group commit', () => {
  it('reports arriving together give the results one by one would: order per email kept, one suppression per address', async () => {
    const team = await h.team();
    const shared = unique('shared');
    const first = await sentEmail(team, shared);
    const second = await sentEmail(team, shared);
    const others = await Promise.all([1, 2, 3, 4, 5].map(async () => {
      const address = unique('gone');
      return { address, ...(await sentEmail(team, address)) };
    }));
    // One transaction at a time: all but the first report queue up and go in one batch.
    const applier = createFeedbackApplier(deps, { concurrency: 1 });
    const results = await Promise.all([
      applier.apply(envelopeTo(first.path), failed(shared, '5.1.1', '550 5.1.1 User unknown')),
      applier.apply(envelopeTo(first.path), failed(shared, '4.2.2', '452 4.2.2 Mailbox full')),
      applier.apply(envelopeTo(`fbl@${MAIL_DOMAIN}`), arf(first.path, shared, first.id)),
      applier.apply(envelopeTo(second.path), failed(shared, '5.1.1', '550 5.1.1 User unknown')),
      ...others.map((o) => applier.apply(envelopeTo(o.path), failed(o.address, '5.1.1', '550 5.1.1 User unknown'))),
    ]);
    expect(results.map((r) => r.outcome)).toEqual(['bounced', 'delayed', 'complained', 'bounced', ...others.map(() => 'bounced')]);
    // The late delay does not hide BOUNCED; the complaint replaces it, as in arrival order.
    const state = await stateOf(team.id, first.id);
    expect(state.status).toBe('COMPLAINED');
    expect(state.events.slice(-3)).toEqual(['BOUNCED', 'DELIVERY_DELAYED', 'COMPLAINED']);
    expect(state.suppressions).toContainEqual({ email: shared, reason: 'COMPLAINT', email_id: first.id });
    expect(state.suppressions).toHaveLength(1 + others.length);
    for (const o of others) expect((await stateOf(team.id, o.id)).status).toBe('BOUNCED');
  });

  it('a report the database refuses fails alone; the rest of its batch is recorded', async () => {
    const team = await h.team();
    const good = await Promise.all([1, 2, 3].map(async () => {
      const address = unique('fine');
      return { address, ...(await sentEmail(team, address)) };
    }));
    const badAddress = unique('nul');
    const bad = await sentEmail(team, badAddress);
    const applier = createFeedbackApplier(deps, { concurrency: 1 });
    // PostgreSQL's jsonb takes no \u0000: this event cannot be stored, so this report is not taken.
    const settled = await Promise.allSettled([
      applier.apply(envelopeTo(good[0]!.path), failed(good[0]!.address, '5.1.1', '550 5.1.1 User unknown')),
      applier.apply(envelopeTo(good[1]!.path), failed(good[1]!.address, '5.1.1', '550 5.1.1 User unknown')),
      applier.apply(envelopeTo(bad.path), failed(badAddress, '5.1.1', '550 5.1.1 User\u0000unknown')),
      applier.apply(envelopeTo(good[2]!.path), failed(good[2]!.address, '5.1.1', '550 5.1.1 User unknown')),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    for (const g of good) expect((await stateOf(team.id, g.id)).status).toBe('BOUNCED');
    const state = await stateOf(team.id, bad.id);
    expect(state.status).toBe('SENT');
    expect(state.suppressions.map((s) => s.email)).not.toContain(badAddress);
  });
});

// Bounces and complaints applied to emails sent through the API, against the real database: the
// email's status and events, the suppression list, and what is dropped (forged, unknown, not ours).
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFeedback, countFeedback, feedbackCounter, type FeedbackDeps } from '../../src/feedback/index.ts';
import { emails, startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import {
  bouncePath as bouncePathOf,
  crlf,
  dsn,
  envelopeTo,
  MAIL_DOMAIN,
  sentEmail as sentEmailOf,
  stateOf as stateOfEmail,
  unique,
} from './support.ts';

let h: EmailHarness;
let deps: FeedbackDeps;
beforeAll(async () => {
  h = await startEmailHarness();
  deps = { db: h.t.deps.db, secrets: h.t.deps.secrets, clock: h.t.clock, mailDomain: MAIL_DOMAIN };
});
afterAll(async () => h.close());

function arf(opts: {
  rcpt?: string;
  mailFrom?: string;
  returnPath?: string;
  messageId: string;
  to: string;
  feedbackType?: string;
}): Buffer {
  return crlf(`From: feedback@fbl.example.net
Subject: complaint
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="F"

--F
Content-Type: text/plain

This is an email abuse report.

--F
Content-Type: message/feedback-report

Feedback-Type: ${opts.feedbackType ?? 'abuse'}
User-Agent: FBL/1.0
Version: 1
${opts.mailFrom === undefined ? '' : `Original-Mail-From: <${opts.mailFrom}>\n`}${opts.rcpt === undefined ? '' : `Original-Rcpt-To: <${opts.rcpt}>\n`}
--F
Content-Type: message/rfc822

${opts.returnPath === undefined ? '' : `Return-Path: <${opts.returnPath}>\n`}Message-ID: ${opts.messageId}
From: hello@example.com
To: ${opts.to}
Subject: Sale

buy
--F--
`);
}

const sentEmail = (team: SendingTeam, to: string | string[]) => sentEmailOf(h, team, to);
const bouncePath = (team: SendingTeam, emailId: string) => bouncePathOf(h, team, emailId);
const stateOf = (teamId: number, emailId: string) => stateOfEmail(h, teamId, emailId);

describe('bounces', () => {
  it('a hard bounce makes the email BOUNCED, keeps the diagnosis and suppresses the address; the next send is SUPPRESSED', async () => {
    const team = await h.team();
    const address = unique('gone');
    const id = await sentEmail(team, address);
    const raw = dsn(
      address.toUpperCase(),
      'failed',
      '5.1.1',
      `550 5.1.1 <${address}>: Recipient address rejected: User unknown`,
    );
    const result = await applyFeedback(deps, envelopeTo(bouncePath(team, id)), raw);
    expect(result).toMatchObject({
      outcome: 'bounced',
      teamId: team.id,
      emailId: id,
      recipients: [{ address, bounceType: 'hard', suppressed: true }],
    });
    expect(result.reason).toBeUndefined();

    const state = await stateOf(team.id, id);
    expect(state.status).toBe('BOUNCED');
    expect(state.events.at(-1)).toEqual({
      status: 'BOUNCED',
      data: expect.objectContaining({
        recipient: address,
        action: 'failed',
        status: '5.1.1',
        bounceType: 'hard',
        reason: 'The mailbox does not exist',
        diagnosticCode: `550 5.1.1 <${address}>: Recipient address rejected: User unknown`,
        remoteMta: 'mx2.example.org',
      }),
    });
    expect(state.suppressions).toEqual([{ email: address, reason: 'HARD_BOUNCE', email_id: id }]);

    const again = emails(h.app, team.key);
    const second = await again.sent({ from: team.from(), to: address, subject: 'Again', text: 'x' });
    expect((await stateOf(team.id, second)).status).toBe('SUPPRESSED');
  });

  it('a delay is DELIVERY_DELAYED and suppresses nothing', async () => {
    const team = await h.team();
    const address = unique('slow');
    const id = await sentEmail(team, address);
    const result = await applyFeedback(
      deps,
      envelopeTo(bouncePath(team, id)),
      dsn(address, 'delayed', '4.4.1', '421 4.4.1 Connection timed out'),
    );
    expect(result).toMatchObject({
      outcome: 'delayed',
      recipients: [{ address, bounceType: 'soft', suppressed: false }],
    });
    const state = await stateOf(team.id, id);
    expect(state.status).toBe('DELIVERY_DELAYED');
    expect(state.events.at(-1)!.data).toMatchObject({ bounceType: 'soft', action: 'delayed' });
    expect(state.suppressions).toEqual([]);
  });

  it('a full mailbox (5.2.2) is soft: no suppression', async () => {
    const team = await h.team();
    const address = unique('full');
    const id = await sentEmail(team, address);
    const result = await applyFeedback(
      deps,
      envelopeTo(bouncePath(team, id)),
      dsn(address, 'failed', '5.2.2', '552 5.2.2 Mailbox full'),
    );
    expect(result.outcome).toBe('delayed');
    expect((await stateOf(team.id, id)).suppressions).toEqual([]);
  });

  it('a forged tag, an address that is not a return path, and an unknown recipient change nothing', async () => {
    const team = await h.team();
    const address = unique('kept');
    const id = await sentEmail(team, address);
    const before = await stateOf(team.id, id);
    const real = bouncePath(team, id);
    const forged = real.replace(
      /\.([a-z2-7])([a-z2-7]{15})@/,
      (_m, c: string, rest: string) => `.${c === 'a' ? 'b' : 'a'}${rest}@`,
    );
    expect(forged).not.toBe(real);
    const raw = dsn(address, 'failed', '5.1.1', '550 5.1.1 unknown');
    expect(await applyFeedback(deps, envelopeTo(forged), raw)).toMatchObject({ outcome: 'ignored', reason: 'forged' });
    expect(await applyFeedback(deps, envelopeTo(`postmaster@send.${team.domain.name}`), raw)).toMatchObject({
      outcome: 'ignored',
      reason: 'unknown-email',
    });
    const stranger = dsn(unique('stranger'), 'failed', '5.1.1', '550 5.1.1 unknown');
    expect(await applyFeedback(deps, envelopeTo(real), stranger)).toMatchObject({
      outcome: 'ignored',
      reason: 'unknown-recipient',
      emailId: id,
    });
    expect(await stateOf(team.id, id)).toEqual(before);
  });

  it('a signed return path of an email that no longer exists is unknown-email', async () => {
    const team = await h.team();
    const path = bouncePath(team, 'em_doesnotexist0000');
    expect(await applyFeedback(deps, envelopeTo(path), dsn('a@example.org', 'failed', '5.1.1', 'x'))).toMatchObject({
      outcome: 'ignored',
      reason: 'unknown-email',
    });
  });

  it('a DSN that reports delivery only is not a failure', async () => {
    const team = await h.team();
    const address = unique('fine');
    const id = await sentEmail(team, address);
    const result = await applyFeedback(
      deps,
      envelopeTo(bouncePath(team, id)),
      dsn(address, 'delivered', '2.0.0', '250 ok'),
    );
    expect(result).toMatchObject({ outcome: 'ignored', reason: 'not-a-failure' });
    expect((await stateOf(team.id, id)).status).toBe('SENT');
  });

  it('something that is not a report is unrecognised, and every outcome is counted', async () => {
    const registry = new Registry();
    const counter = feedbackCounter(registry);
    const result = await applyFeedback(deps, envelopeTo('x@example.org'), crlf('Subject: hello\n\nhi\n'));
    expect(result).toMatchObject({ outcome: 'ignored', reason: 'unrecognised' });
    countFeedback(counter, result);
    expect(feedbackCounter(registry)).toBe(counter);
    expect(await registry.metrics()).toContain(
      'herald_feedback_reports_total{outcome="ignored",reason="unrecognised"} 1',
    );
  });
});

describe('complaints', () => {
  it('a complaint through the return path is COMPLAINED and suppresses the address, even after a bounce', async () => {
    const team = await h.team();
    const address = unique('angry');
    const id = await sentEmail(team, address);
    const path = bouncePath(team, id);
    await applyFeedback(deps, envelopeTo(path), dsn(address, 'failed', '5.1.1', '550 5.1.1 unknown'));
    const raw = arf({ mailFrom: path, rcpt: address, messageId: `<${id}@${MAIL_DOMAIN}>`, to: address });
    const result = await applyFeedback(deps, envelopeTo(`fbl@${MAIL_DOMAIN}`), raw);
    expect(result).toMatchObject({
      outcome: 'complained',
      emailId: id,
      recipients: [{ address, outcome: 'complained', suppressed: true }],
    });
    const state = await stateOf(team.id, id);
    expect(state.status).toBe('COMPLAINED');
    expect(state.events.at(-1)).toMatchObject({
      status: 'COMPLAINED',
      data: { recipient: address, feedbackType: 'abuse', matchedBy: 'return-path' },
    });
    expect(state.suppressions).toEqual([{ email: address, reason: 'COMPLAINT', email_id: id }]);
  });

  it("a redacted complaint is matched by our Message-ID and the email's only recipient", async () => {
    const team = await h.team();
    const address = unique('redacted');
    const id = await sentEmail(team, address);
    const raw = arf({ messageId: `<${id}@${MAIL_DOMAIN.toUpperCase()}>`, to: 'redacted@example.net' });
    expect(await applyFeedback(deps, envelopeTo(`fbl@${MAIL_DOMAIN}`), raw)).toMatchObject({
      outcome: 'complained',
      emailId: id,
    });
    expect((await stateOf(team.id, id)).events.at(-1)!.data).toMatchObject({
      recipient: address,
      matchedBy: 'message-id',
    });
  });

  it('a Message-ID of another domain, an unknown id, a forged return path or another feedback type is dropped', async () => {
    const team = await h.team();
    const address = unique('calm');
    const id = await sentEmail(team, address);
    const before = await stateOf(team.id, id);
    const fbl = envelopeTo(`fbl@${MAIL_DOMAIN}`);
    expect(await applyFeedback(deps, fbl, arf({ messageId: `<${id}@evil.example>`, to: address }))).toMatchObject({
      outcome: 'ignored',
      reason: 'unknown-email',
    });
    expect(
      await applyFeedback(deps, fbl, arf({ messageId: `<em_nope000@${MAIL_DOMAIN}>`, to: address })),
    ).toMatchObject({ outcome: 'ignored', reason: 'unknown-email' });
    const forged = `bounce+${id}.aaaaaaaaaaaaaaaa@send.${team.domain.name}`;
    expect(
      await applyFeedback(deps, fbl, arf({ mailFrom: forged, messageId: `<${id}@${MAIL_DOMAIN}>`, to: address })),
    ).toMatchObject({ outcome: 'ignored', reason: 'forged' });
    expect(
      await applyFeedback(
        deps,
        fbl,
        arf({ messageId: `<${id}@${MAIL_DOMAIN}>`, to: address, feedbackType: 'not-spam' }),
      ),
    ).toMatchObject({ outcome: 'ignored', reason: 'not-a-complaint' });
    expect(await stateOf(team.id, id)).toEqual(before);
  });

  it('with several recipients and the address redacted, nobody is suppressed', async () => {
    const team = await h.team();
    const id = await sentEmail(team, [unique('one'), unique('two')]);
    const raw = arf({
      returnPath: bouncePath(team, id),
      messageId: `<${id}@${MAIL_DOMAIN}>`,
      to: 'undisclosed-recipients:;',
    });
    expect(await applyFeedback(deps, envelopeTo(`fbl@${MAIL_DOMAIN}`), raw)).toMatchObject({
      outcome: 'ignored',
      reason: 'unknown-recipient',
      emailId: id,
    });
    expect((await stateOf(team.id, id)).suppressions).toEqual([]);
  });
});

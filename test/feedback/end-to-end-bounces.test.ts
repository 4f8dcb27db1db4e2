// Bounces end to end, over real sockets (the bed: end-to-end-support.ts): a DSN comes back to the
// return path of an email the relay took, through Herald's own inbound listener. What follows is
// checked as a team sees it: the email's status and events over the API, the suppression list over
// the admin API, and the next send to the address SUPPRESSED and left out of the daily usage. A forged
// return path is refused at RCPT TO.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseReturnPath } from '../../src/emails/return-path.ts';
import { emailJson, latestStatus, uniqueRecipient } from '../emails/delivery-support.ts';
import type { EmailHarness, SendingTeam } from '../emails/support.ts';
import { headerBlock, startFeedbackBed, statuses, type FeedbackBed } from './end-to-end-support.ts';
import { crlf } from './support.ts';

let bed: FeedbackBed, h: EmailHarness, team: SendingTeam;
beforeAll(async () => void ({ h, team } = bed = await startFeedbackBed()));
afterEach(async () => void (await bed.auditDkim()));
afterAll(async () => bed?.close());

/** An RFC 3464 bounce as a receiving MTA writes it, with the original's headers attached. */
function dsn(recipient: string, originalHeaders: string): Buffer {
  return crlf(`From: Mail Delivery System <MAILER-DAEMON@mx.example.test>
To: postmaster
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="DSN-B"

--DSN-B
Content-Type: text/plain

This is the mail system at host mx.example.test. Your message could not be delivered.

--DSN-B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.test
Arrival-Date: Sun, 22 Nov 2026 09:00:00 +0000

Final-Recipient: rfc822; ${recipient}
Original-Recipient: rfc822; ${recipient}
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx2.example.test
Diagnostic-Code: smtp; 550 5.1.1 <${recipient}>: Recipient address rejected: User unknown

--DSN-B
Content-Type: text/rfc822-headers

${originalHeaders}
--DSN-B--
`);
}

describe('feedback through the inbound SMTP listener', () => {
  it('a DSN to the return path bounces the email, suppresses the address, and the next send is SUPPRESSED', async () => {
    const to = uniqueRecipient('gone');
    const sent = await bed.deliveredEmail(to);
    expect(parseReturnPath(sent.returnPath, h.t.deps.secrets)).toBe(sent.id);
    expect(await bed.suppressionsOf(to)).toEqual([]);
    const bouncedBefore = await bed.feedbackCount('bounced');

    // Bounces come from the null sender (RFC 5321 4.5.5).
    const answer = await bed.sendToListener({ from: false, to: sent.returnPath }, dsn(to, headerBlock(sent.raw)));
    expect(answer.accepted).toEqual([sent.returnPath]);
    expect(answer.response).toMatch(/^250/);

    // The 250 is written once the message is spooled; the listener then records what it reports.
    await bed.processed();
    expect(await bed.spooledCount()).toBe(0);
    expect(await latestStatus(h, sent.id)).toBe('BOUNCED');
    const email = await emailJson(h, team.key, sent.id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'SENT', 'BOUNCED']);
    expect(email.emailEvents[2]!.data).toMatchObject({
      recipient: to,
      action: 'failed',
      status: '5.1.1',
      bounceType: 'hard',
      category: 'unknown-user',
      remoteMta: 'mx2.example.test',
      reportingMta: 'mx.example.test',
    });
    expect(email.emailEvents[2]!.data!.diagnosticCode).toContain('Recipient address rejected: User unknown');
    expect(await bed.suppressionsOf(to)).toEqual([
      expect.objectContaining({ email: to, reason: 'HARD_BOUNCE', emailId: sent.id }),
    ]);
    expect(await bed.feedbackCount('bounced')).toBe(bouncedBefore + 1);

    await bed.expectNextSendSuppressed(to);
  });

  it('refuses a forged return path (wrong tag) at RCPT TO with 550, and changes nothing', async () => {
    const to = uniqueRecipient('target');
    const sent = await bed.deliveredEmail(to);
    // The same email id with another tag: a guess at an address of ours, without HERALD_SECRET.
    const [local, domain] = sent.returnPath.split('@') as [string, string];
    const tag = local.slice(local.lastIndexOf('.') + 1);
    const forgedTag = tag.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    const forged = `${local.slice(0, local.lastIndexOf('.') + 1)}${forgedTag}@${domain}`;
    expect(forged).not.toBe(sent.returnPath);
    expect(parseReturnPath(forged, h.t.deps.secrets)).toBeNull();
    const reportsBefore = (await bed.feedbackCount('bounced')) + (await bed.feedbackCount('ignored'));

    const refusal = await bed.sendToListener({ from: false, to: forged }, dsn(to, headerBlock(sent.raw))).then(
      () => null,
      (error: Error & { responseCode?: number; command?: string; response?: string }) => error,
    );
    expect(refusal, 'the forged return path was accepted').not.toBeNull();
    expect(refusal!.responseCode).toBe(550);
    expect(refusal!.command).toMatch(/^RCPT TO/);
    expect(await bed.spooledCount()).toBe(0);
    await bed.processed();

    expect(await latestStatus(h, sent.id)).toBe('SENT');
    expect(statuses((await emailJson(h, team.key, sent.id)).emailEvents)).toEqual(['QUEUED', 'SENT']);
    expect(await bed.suppressionsOf(to)).toEqual([]);
    // Nothing reached applyFeedback at all.
    expect((await bed.feedbackCount('bounced')) + (await bed.feedbackCount('ignored'))).toBe(reportsBefore);

    // Control: the genuine return path on the same listener is accepted for the same report.
    const answer = await bed.sendToListener({ from: false, to: sent.returnPath }, dsn(to, headerBlock(sent.raw)));
    expect(answer.response).toMatch(/^250/);
    await bed.processed();
    expect(await latestStatus(h, sent.id)).toBe('BOUNCED');
  });
});

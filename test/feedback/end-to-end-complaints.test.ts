// Complaints end to end, over real sockets (the bed: end-to-end-support.ts): an ARF abuse report comes
// back to the return path of an email the relay took, through Herald's own inbound listener; the email
// is COMPLAINED, the address suppressed, and the next send to it SUPPRESSED.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emailJson, latestStatus, uniqueRecipient } from '../emails/delivery-support.ts';
import type { EmailHarness, SendingTeam } from '../emails/support.ts';
import { startFeedbackBed, statuses, type FeedbackBed } from './end-to-end-support.ts';
import { crlf } from './support.ts';

let bed: FeedbackBed, h: EmailHarness, team: SendingTeam;
beforeAll(async () => void ({ h, team } = bed = await startFeedbackBed()));
afterEach(async () => void (await bed.auditDkim()));
afterAll(async () => bed?.close());

/** An RFC 5965 abuse report as a mailbox provider's feedback loop sends it, the original attached. */
function arf(recipient: string, returnPath: string, original: string): Buffer {
  return crlf(`From: FBL <fbl@fbl.example.test>
To: abuse
Subject: Abuse report
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="ARF-B"

--ARF-B
Content-Type: text/plain

This is an email abuse report for an email message received from IP 192.0.2.1.

--ARF-B
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: FBL/1.0
Version: 1
Original-Mail-From: <${returnPath}>
Original-Rcpt-To: <${recipient}>
Arrival-Date: Sun, 22 Nov 2026 09:00:00 +0000

--ARF-B
Content-Type: message/rfc822

${original}
--ARF-B--
`);
}

describe('feedback through the inbound SMTP listener', () => {
  it('an ARF abuse report makes the email COMPLAINED and suppresses the address', async () => {
    const to = uniqueRecipient('angry');
    const sent = await bed.deliveredEmail(to);
    const answer = await bed.sendToListener(
      { from: 'fbl@fbl.example.test', to: sent.returnPath },
      arf(to, sent.returnPath, sent.raw),
    );
    expect(answer.response).toMatch(/^250/);

    await bed.processed();
    expect(await latestStatus(h, sent.id)).toBe('COMPLAINED');
    const email = await emailJson(h, team.key, sent.id);
    expect(statuses(email.emailEvents)).toEqual(['QUEUED', 'SENT', 'COMPLAINED']);
    expect(email.emailEvents[2]!.data).toMatchObject({
      recipient: to,
      feedbackType: 'abuse',
      matchedBy: 'return-path',
    });
    expect(await bed.suppressionsOf(to)).toEqual([
      expect.objectContaining({ email: to, reason: 'COMPLAINT', emailId: sent.id }),
    ]);

    await bed.expectNextSendSuppressed(to);
  });
});

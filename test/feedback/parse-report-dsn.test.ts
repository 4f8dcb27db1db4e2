// Real-world shaped RFC 3464 bounces -> FeedbackReport, then the rule table's verdict on each
// recipient. The samples follow what Postfix, Exim, Gmail and relays emit.
import { describe, expect, it } from 'vitest';
import { parseFeedbackReport } from '../../src/feedback/parse-report.ts';
import { crlf, ORIGINAL, RP, verdictOf } from './parse-report-support.ts';

function dsn(opts: { from: string; subject: string; human: string; status: string; original?: string }): Buffer {
  return crlf(`From: ${opts.from}
To: <${RP}>
Subject: ${opts.subject}
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="==B=="

--==B==
Content-Type: text/plain; charset=us-ascii

${opts.human}

--==B==
Content-Type: message/delivery-status

${opts.status}

--==B==
Content-Type: text/rfc822-headers

${opts.original ?? ORIGINAL}
--==B==--
`);
}

const POSTFIX_DSN = dsn({
  from: 'MAILER-DAEMON@mx.example.org (Mail Delivery System)',
  subject: 'Undelivered Mail Returned to Sender',
  human:
    "This is the mail system at host mx.example.org.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.",
  status: `Reporting-MTA: dns; mx.example.org
X-Postfix-Queue-ID: 4F2D81F7C
Arrival-Date: Tue,  4 Mar 2025 10:00:00 +0000 (UTC)

Final-Recipient: rfc822; Someone@Example.org
Original-Recipient: rfc822;someone@example.org
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx2.example.org
Diagnostic-Code: smtp; 550 5.1.1 <someone@example.org>: Recipient address
    rejected: User unknown in local recipient table`,
});

describe('RFC 3464 delivery status notifications', () => {
  it('Postfix: unknown user is a hard bounce with the diagnostic unfolded', async () => {
    const report = await parseFeedbackReport(POSTFIX_DSN);
    expect(report).toMatchObject({ kind: 'dsn', format: 'rfc3464', reportingMta: 'mx.example.org' });
    expect(report.recipients).toEqual([
      {
        address: 'someone@example.org',
        action: 'failed',
        status: '5.1.1',
        diagnosticCode:
          '550 5.1.1 <someone@example.org>: Recipient address rejected: User unknown in local recipient table',
        remoteMta: 'mx2.example.org',
      },
    ]);
    expect(report.originalHeaders['message-id']).toBe('<01jabc@mail.herald.test>');
    expect(verdictOf(report)).toMatchObject({
      bounceType: 'hard',
      category: 'unknown-user',
      reason: 'The mailbox does not exist',
    });
  });

  it('Exim: two recipients, one failed and one delayed', async () => {
    const report = await parseFeedbackReport(
      dsn({
        from: 'Mail Delivery System <Mailer-Daemon@mail.example.net>',
        subject: 'Mail delivery failed: returning message to sender',
        human:
          'This message was created automatically by mail delivery software.\n\nA message that you sent could not be delivered to one or more of its\nrecipients. This is a permanent error.',
        status: `Reporting-MTA: dns; mail.example.net

Action: failed
Final-Recipient: rfc822;gone@example.net
Status: 5.0.0
Remote-MTA: dns; mx.example.net
Diagnostic-Code: smtp; 550 No such user here

Action: delayed
Final-Recipient: rfc822;slow@example.net
Status: 4.0.0
Remote-MTA: dns; mx.example.net
Diagnostic-Code: smtp; 451 Temporary local problem - please try later`,
      }),
    );
    expect(report.recipients.map((r) => [r.address, r.action, r.status])).toEqual([
      ['gone@example.net', 'failed', '5.0.0'],
      ['slow@example.net', 'delayed', '4.0.0'],
    ]);
    // 5.0.0 says nothing: the text decides.
    expect(verdictOf(report, 0)).toMatchObject({ bounceType: 'hard', category: 'unknown-user' });
    expect(verdictOf(report, 1)).toMatchObject({ bounceType: 'soft', category: 'temporary' });
  });

  it('Gmail 550-5.1.1 through a relay', async () => {
    const report = await parseFeedbackReport(
      dsn({
        from: 'Mail Delivery Subsystem <mailer-daemon@relay.example.com>',
        subject: 'Delivery Status Notification (Failure)',
        human: 'Address not found',
        status: `Reporting-MTA: dns; relay.example.com

Final-Recipient: rfc822; nobody.here@gmail.com
Action: failed
Status: 5.1.1
Remote-MTA: dns; gmail-smtp-in.l.google.com. (142.250.27.26, the server for the domain gmail.com.)
Diagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does not exist. Please try
 550-5.1.1 double-checking the recipient's email address for typos or
 550-5.1.1 unnecessary spaces. https://support.google.com/mail/?p=NoSuchUser a1si2 - gsmtp`,
      }),
    );
    expect(report.recipients[0]).toMatchObject({ address: 'nobody.here@gmail.com', status: '5.1.1' });
    expect(report.recipients[0]!.remoteMta).toContain('gmail-smtp-in.l.google.com');
    expect(verdictOf(report)).toMatchObject({ bounceType: 'hard', category: 'unknown-user' });
  });

  it('a delayed DSN (Postfix warning) is soft', async () => {
    const report = await parseFeedbackReport(
      dsn({
        from: 'MAILER-DAEMON@mx.example.org (Mail Delivery System)',
        subject: 'Delayed Mail (still being retried)',
        human:
          'This is the mail system at host mx.example.org.\n\n####################################################################\n# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #\n####################################################################',
        status: `Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; someone@example.org
Action: delayed
Status: 4.4.1
Diagnostic-Code: X-Postfix; connect to mx.example.org[203.0.113.5]:25: Connection timed out
Will-Retry-Until: Sat, 8 Mar 2025 10:00:00 +0000 (UTC)`,
      }),
    );
    expect(report.recipients[0]).toMatchObject({ action: 'delayed', status: '4.4.1' });
    expect(verdictOf(report)).toMatchObject({ bounceType: 'soft', category: 'temporary' });
  });

  it('mailbox full: 4.2.2 and 5.2.2 are both soft (RFC 3463: a persistent transient failure)', async () => {
    for (const [status, code] of [
      ['4.2.2', '452-4.2.2'],
      ['5.2.2', '552-5.2.2'],
    ] as const) {
      const report = await parseFeedbackReport(
        dsn({
          from: 'MAILER-DAEMON@relay.example.com',
          subject: 'Undelivered Mail Returned to Sender',
          human: 'Your message could not be delivered.',
          status: `Reporting-MTA: dns; relay.example.com\n\nFinal-Recipient: rfc822; full@gmail.com\nAction: failed\nStatus: ${status}\nDiagnostic-Code: smtp; ${code} The recipient's inbox is out of storage space. Please direct the recipient to\n ${code} https://support.google.com/mail/?p=OverQuotaTemp - gsmtp`,
        }),
      );
      expect(verdictOf(report)).toMatchObject({
        bounceType: 'soft',
        category: 'mailbox-full',
        reason: 'The mailbox is full',
      });
    }
  });

  it("a spam block 5.7.1 is a soft bounce: the sender's problem, not the address's", async () => {
    const report = await parseFeedbackReport(
      dsn({
        from: 'MAILER-DAEMON@relay.example.com',
        subject: 'Undelivered Mail Returned to Sender',
        human: 'Your message could not be delivered.',
        status: `Reporting-MTA: dns; relay.example.com\n\nFinal-Recipient: rfc822; someone@gmail.com\nAction: failed\nStatus: 5.7.1\nDiagnostic-Code: smtp; 550-5.7.1 [203.0.113.5] Our system has detected that this message is likely\n 550-5.7.1 unsolicited mail. To reduce the amount of spam sent to Gmail, this\n 550-5.7.1 message has been blocked. - gsmtp`,
      }),
    );
    expect(verdictOf(report)).toMatchObject({ bounceType: 'soft', category: 'spam-rejected' });
  });
});

// Real-world shaped bounces and complaints -> FeedbackReport, then the rule table's verdict on each
// recipient. The samples follow what Postfix, Exim, Gmail, Exchange, qmail and ARF senders emit.
import { describe, expect, it } from 'vitest';
import { classifyBounce } from '../../src/feedback/bounce-rules.ts';
import { parseFeedbackReport, type FeedbackReport } from '../../src/feedback/parse-report.ts';

const RP = 'bounce+01jabc.aaaaaaaaaaaaaaaa@send.example.com';
const ORIGINAL = `Message-ID: <01jabc@mail.herald.test>\r\nFrom: Shop <hello@example.com>\r\nTo: someone@example.org\r\nSubject: Your order\r\n`;
const crlf = (text: string) => Buffer.from(text.replace(/\r?\n/g, '\r\n'));

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

const verdictOf = (report: FeedbackReport, i = 0) => {
  const r = report.recipients[i]!;
  return classifyBounce({ action: r.action, status: r.status, diagnosticCode: r.diagnosticCode });
};

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

describe('plain-text bounces (no DSN part)', () => {
  it('qmail', async () => {
    const report = await parseFeedbackReport(
      crlf(`From: MAILER-DAEMON@mail.example.net
To: ${RP}
Subject: failure notice

Hi. This is the qmail-send program at mail.example.net.
I'm afraid I wasn't able to deliver your message to the following addresses.
This is a permanent error; I've given up. Sorry it didn't work out.

<Nobody@Example.net>:
Sorry, no mailbox here by that name. (#5.1.1)

--- Below this line is a copy of the message.

Return-Path: <${RP}>
From: hello@example.com
To: nobody@example.net
`),
    );
    expect(report).toMatchObject({ kind: 'dsn', format: 'plain-text' });
    // The copy's From and Return-Path are not failed recipients.
    expect(report.recipients).toEqual([
      {
        address: 'nobody@example.net',
        action: 'failed',
        status: '5.1.1',
        diagnosticCode: 'Sorry, no mailbox here by that name. (#5.1.1)',
        remoteMta: null,
      },
    ]);
    expect(verdictOf(report)).toMatchObject({ bounceType: 'hard', category: 'unknown-user' });
  });

  it('Outlook/Exchange NDR text, the original attached', async () => {
    const report = await parseFeedbackReport(
      crlf(`From: postmaster@contoso.com
To: ${RP}
Subject: Undeliverable: Your order
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="NDR"

--NDR
Content-Type: text/plain; charset=utf-8

Delivery has failed to these recipients or groups:

pat@contoso.com
The email address you entered couldn't be found. Please check the recipient's email address and try to resend the message.

Diagnostic information for administrators:

Generating server: EXCH01.contoso.local

pat@contoso.com
Remote Server returned '550 5.1.1 RESOLVER.ADR.RecipNotFound; not found'

--NDR
Content-Type: message/rfc822

${ORIGINAL}
body
--NDR--
`),
    );
    expect(report).toMatchObject({ kind: 'dsn', format: 'plain-text' });
    expect(report.recipients).toHaveLength(1);
    expect(report.recipients[0]).toMatchObject({ address: 'pat@contoso.com', status: '5.1.1' });
    expect(report.originalHeaders['message-id']).toBe('<01jabc@mail.herald.test>');
    expect(verdictOf(report)).toMatchObject({ bounceType: 'hard', category: 'unknown-user' });
  });
});

describe('complaints (ARF)', () => {
  it('reads Feedback-Type, Original-Mail-From, Original-Rcpt-To and the original headers', async () => {
    const report = await parseFeedbackReport(
      crlf(`From: <staff@hotmail.com>
To: <fbl@example.com>
Subject: complaint about message from 203.0.113.5
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="part1"

--part1
Content-Type: text/plain; charset="US-ASCII"

This is an email abuse report for an email message received from IP 203.0.113.5.

--part1
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: SomeGenerator/1.0
Version: 1
Original-Mail-From: <${RP}>
Original-Rcpt-To: <Someone@Example.org>
Arrival-Date: Thu, 8 Mar 2025 14:00:00 EDT

--part1
Content-Type: message/rfc822

Return-Path: <${RP}>
${ORIGINAL}
body
--part1--
`),
    );
    expect(report).toMatchObject({ kind: 'complaint', format: 'arf', feedbackType: 'abuse', originalMailFrom: RP });
    expect(report.recipients.map((r) => r.address)).toEqual(['someone@example.org']);
    expect(report.originalHeaders['return-path']).toBe(`<${RP}>`);
  });
});

describe('anything else', () => {
  it.each([
    ['empty', Buffer.alloc(0)],
    ['binary noise', Buffer.from([0, 255, 1, 254, 13, 10, 13, 10, 0])],
    ['an ordinary message', crlf('From: friend@example.org\nSubject: lunch?\n\nSee you at noon.\n')],
    [
      'a report with no status part',
      crlf(
        'From: x@example.org\nSubject: hi\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\n\n--b\nContent-Type: text/plain\n\nhello\n--b--\n',
      ),
    ],
    ['a broken multipart', crlf('Content-Type: multipart/report; report-type=feedback-report; boundary=\n\n--\n--\n')],
  ])('%s is unrecognised, never an exception', async (_name, raw) => {
    expect((await parseFeedbackReport(raw)).kind).toBe('unrecognised');
  });
});

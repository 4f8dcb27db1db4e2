// Bounces without a DSN part (qmail, Outlook/Exchange), ARF complaints -> FeedbackReport, and what
// is no report at all: unrecognised, never an exception.
import { describe, expect, it } from 'vitest';
import { parseFeedbackReport } from '../../src/feedback/parse-report.ts';
import { crlf, ORIGINAL, RP, verdictOf } from './parse-report-support.ts';

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

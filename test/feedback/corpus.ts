// Reports as MTAs and feedback loops send them (the shapes of parse-report-*.test.ts and more): the
// corpus on which the light parser and mailparser must agree. `light` says which path should answer.
const RP = 'bounce+01jabc.aaaaaaaaaaaaaaaa@send.example.com';
const ORIGINAL =
  'Message-ID: <01jabc@mail.herald.test>\nFrom: Shop <hello@example.com>\nTo: someone@example.org\nSubject: Your order\n';
const crlf = (text: string) => Buffer.from(text.replace(/\r?\n/g, '\r\n'));
const lf = (text: string) => Buffer.from(text.replace(/\r\n/g, '\n'));

export interface Sample {
  name: string;
  raw: Buffer;
  /** The light parser answers for it (else it declines and mailparser decides). */
  light: boolean;
}

interface DsnParts {
  contentType?: string;
  human: string;
  humanHeaders?: string;
  status: string;
  statusHeaders?: string;
  original?: string;
  originalType?: string;
}

function dsnText(p: DsnParts): string {
  return `From: MAILER-DAEMON@mx.example.org (Mail Delivery System)
To: <${RP}>
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: ${p.contentType ?? 'multipart/report; report-type=delivery-status; boundary="==B=="'}

This is a MIME-encapsulated message.

--==B==
${p.humanHeaders ?? 'Content-Type: text/plain; charset=us-ascii'}

${p.human}

--==B==
${p.statusHeaders ?? 'Content-Type: message/delivery-status'}

${p.status}

--==B==
Content-Type: ${p.originalType ?? 'text/rfc822-headers'}

${p.original ?? ORIGINAL}
--==B==--
`;
}

const POSTFIX_STATUS = `Reporting-MTA: dns; mx.example.org
X-Postfix-Queue-ID: 4F2D81F7C
Arrival-Date: Tue,  4 Mar 2025 10:00:00 +0000 (UTC)

Final-Recipient: rfc822; Someone@Example.org
Original-Recipient: rfc822;someone@example.org
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx2.example.org
Diagnostic-Code: smtp; 550 5.1.1 <someone@example.org>: Recipient address
    rejected: User unknown in local recipient table`;

const EXIM_STATUS = `Reporting-MTA: dns; mail.example.net

Action: failed
Final-Recipient: rfc822;gone@example.net
Status: 5.0.0
Remote-MTA: dns; mx.example.net
Diagnostic-Code: smtp; 550 No such user here

Action: delayed
Final-Recipient: rfc822;slow@example.net
Status: 4.0.0
Remote-MTA: dns; mx.example.net
Diagnostic-Code: smtp; 451 Temporary local problem - please try later`;

const GMAIL_STATUS = `Reporting-MTA: dns; relay.example.com

Final-Recipient: rfc822; nobody.here@gmail.com
Action: failed
Status: 5.1.1
Remote-MTA: dns; gmail-smtp-in.l.google.com. (142.250.27.26, the server for the domain gmail.com.)
Diagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does not exist. Please try
 550-5.1.1 double-checking the recipient's email address for typos or
 550-5.1.1 unnecessary spaces. https://support.google.com/mail/?p=NoSuchUser a1si2 - gsmtp`;

const HUMAN =
  "This is the mail system at host mx.example.org.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.";

function arf(originalType: string, extra = ''): string {
  return `From: <staff@hotmail.com>
To: <fbl@example.com>
Subject: complaint about message from 203.0.113.5
MIME-Version: 1.0
Content-Type: multipart/report;
 report-type=feedback-report;
\tboundary="part1"

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
Content-Type: ${originalType}${extra}

Return-Path: <${RP}>
${ORIGINAL}
body
--part1--
`;
}

const QP_HUMAN = 'Votre message n=E2=80=99a pas pu =C3=AAtre remis =\n=C3=A0 un ou plusieurs destinataires.';
const B64_STATUS = Buffer.from(POSTFIX_STATUS.replace(/\n/g, '\r\n'))
  .toString('base64')
  .replace(/(.{76})/g, '$1\n');

export const CORPUS: Sample[] = [
  { name: 'Postfix DSN', raw: crlf(dsnText({ human: HUMAN, status: POSTFIX_STATUS })), light: true },
  { name: 'Postfix DSN, LF line endings', raw: lf(dsnText({ human: HUMAN, status: POSTFIX_STATUS })), light: true },
  {
    name: 'Exim DSN, two recipients',
    raw: crlf(dsnText({ human: 'A message that you sent could not be delivered.', status: EXIM_STATUS })),
    light: true,
  },
  {
    name: 'Gmail DSN, folded diagnostic',
    raw: crlf(dsnText({ human: 'Address not found', status: GMAIL_STATUS })),
    light: true,
  },
  {
    name: 'unquoted boundary, folded Content-Type, parameters in another order',
    raw: crlf(
      dsnText({
        contentType: 'multipart/report;\n boundary="==B==";\n\treport-type="delivery-status"',
        human: HUMAN,
        status: POSTFIX_STATUS,
      }).replace(/"==B=="/, '==B=='),
    ),
    light: true,
  },
  {
    name: 'quoted-printable UTF-8 text part',
    raw: crlf(
      dsnText({
        humanHeaders: 'Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable',
        human: QP_HUMAN,
        status: POSTFIX_STATUS,
      }),
    ),
    light: true,
  },
  {
    name: 'base64 delivery-status part, Content-Disposition inline',
    raw: crlf(
      dsnText({
        human: HUMAN,
        status: B64_STATUS,
        statusHeaders:
          'Content-Type: message/delivery-status\nContent-Transfer-Encoding: base64\nContent-Description: Delivery report\nContent-Disposition: inline',
      }),
    ),
    light: true,
  },
  {
    name: 'original attached as message/rfc822',
    raw: crlf(
      dsnText({
        human: HUMAN,
        status: GMAIL_STATUS,
        originalType: 'message/rfc822',
        original: `Return-Path: <${RP}>\n${ORIGINAL}\nbody\n`,
      }),
    ),
    light: true,
  },
  {
    name: 'global delivery status (RFC 6533)',
    raw: crlf(
      dsnText({ human: HUMAN, status: POSTFIX_STATUS, statusHeaders: 'Content-Type: message/global-delivery-status' }),
    ),
    light: true,
  },
  { name: 'ARF with message/rfc822, folded Content-Type', raw: crlf(arf('message/rfc822')), light: true },
  { name: 'ARF with text/rfc822-headers', raw: crlf(arf('text/rfc822-headers')), light: true },
  {
    name: 'ARF, original as an attachment with a file name',
    raw: crlf(arf('message/rfc822', '\nContent-Disposition: attachment; filename="original.eml"')),
    light: true,
  },
  // The light parser declines these; mailparser decides.
  {
    name: 'ISO-8859-1 text part',
    raw: crlf(
      dsnText({ humanHeaders: 'Content-Type: text/plain; charset=iso-8859-1', human: HUMAN, status: POSTFIX_STATUS }),
    ),
    light: false,
  },
  {
    name: 'format=flowed text part',
    raw: crlf(
      dsnText({ humanHeaders: 'Content-Type: text/plain; format=flowed', human: HUMAN, status: POSTFIX_STATUS }),
    ),
    light: false,
  },
  {
    name: 'HTML human part',
    raw: crlf(
      dsnText({ humanHeaders: 'Content-Type: text/html', human: '<p>Could not deliver</p>', status: POSTFIX_STATUS }),
    ),
    light: false,
  },
  { name: 'inline message/rfc822', raw: crlf(arf('message/rfc822', '\nContent-Disposition: inline')), light: false },
  {
    name: 'RFC 2231 boundary',
    raw: crlf(
      dsnText({
        contentType: "multipart/report; report-type=delivery-status; boundary*=''%3D%3DB%3D%3D",
        human: HUMAN,
        status: POSTFIX_STATUS,
      }),
    ),
    light: false,
  },
  {
    name: 'multipart/report inside multipart/mixed',
    raw: crlf(
      `From: MAILER-DAEMON@mx.example.org\nTo: <${RP}>\nSubject: Undelivered Mail\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=OUT\n\n--OUT\n${dsnText({ human: HUMAN, status: POSTFIX_STATUS }).split('\n').slice(4).join('\n')}\n--OUT--\n`,
    ),
    light: false,
  },
  {
    name: 'DSN with an empty status part',
    raw: crlf(
      dsnText({
        human:
          'Delivery to the following recipient failed permanently:\n\n    pat@example.net\n\n550 5.1.1 no such user',
        status: '',
      }),
    ),
    light: false,
  },
  {
    name: 'ARF without Feedback-Type',
    raw: crlf(arf('message/rfc822').replace('Feedback-Type: abuse\r\n', '').replace('Feedback-Type: abuse\n', '')),
    light: false,
  },
  {
    name: 'missing closing delimiter',
    raw: crlf(dsnText({ human: HUMAN, status: POSTFIX_STATUS }).replace('--==B==--', '')),
    light: false,
  },
  {
    name: 'qmail plain text',
    raw: crlf(
      `From: MAILER-DAEMON@mail.example.net\nTo: ${RP}\nSubject: failure notice\n\nI'm afraid I wasn't able to deliver your message to the following addresses.\nThis is a permanent error; I've given up.\n\n<Nobody@Example.net>:\nSorry, no mailbox here by that name. (#5.1.1)\n`,
    ),
    light: false,
  },
  {
    name: 'an ordinary message',
    raw: crlf('From: friend@example.org\nSubject: lunch?\n\nSee you at noon.\n'),
    light: false,
  },
  { name: 'empty', raw: Buffer.alloc(0), light: false },
  { name: 'binary noise', raw: Buffer.from([0, 255, 1, 254, 13, 10, 13, 10, 0]), light: false },
  {
    name: 'a broken multipart',
    raw: crlf('Content-Type: multipart/report; report-type=feedback-report; boundary=\n\n--\n--\n'),
    light: false,
  },
];

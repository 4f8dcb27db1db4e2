// Shared by the feedback tests: report messages as MTAs write them, emails to report on (sent through
// the API, then marked SENT as if a relay took them), and what became of an email afterwards.
import { returnPathAddress } from '../../src/emails/return-path.ts';
import { emails, type EmailHarness, type SendingTeam } from '../emails/support.ts';

export const MAIL_DOMAIN = 'mail.herald.test';

export const crlf = (text: string) => Buffer.from(text.replace(/\r?\n/g, '\r\n'));

let counter = 0;
export const unique = (local: string) => `${local}${++counter}@example.org`;
export const envelopeTo = (address: string) => ({ rcptTo: [address], mailFrom: '' });

/** A Postfix-style RFC 3464 report for one recipient. */
export function dsn(recipient: string, action: string, status: string, diagnostic: string): Buffer {
  return crlf(`From: MAILER-DAEMON@mx.example.org
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

Your message could not be delivered.

--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; ${recipient}
Action: ${action}
Status: ${status}
Remote-MTA: dns; mx2.example.org
Diagnostic-Code: smtp; ${diagnostic}

--B--
`);
}

/** An email of `team` to `to`, SENT: bounce reports arrive after a relay took it. */
export async function sentEmail(h: EmailHarness, team: SendingTeam, to: string | string[]): Promise<string> {
  const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'Hello', text: 'x' });
  await h.t.deps.db.updateTable('emails').set({ status: 'SENT' }).where('id', '=', id).execute();
  return id;
}

/** The signed return path the email went out with. */
export const bouncePath = (h: EmailHarness, team: SendingTeam, emailId: string) =>
  returnPathAddress(emailId, `send.${team.domain.name}`, h.t.deps.secrets);

export async function stateOf(h: EmailHarness, teamId: number, emailId: string) {
  const db = h.t.deps.db;
  const email = await db
    .selectFrom('emails')
    .select('status')
    .where('team_id', '=', teamId)
    .where('id', '=', emailId)
    .executeTakeFirstOrThrow();
  const events = await db
    .selectFrom('email_events')
    .select(['status', 'data'])
    .where('team_id', '=', teamId)
    .where('email_id', '=', emailId)
    .orderBy('id')
    .execute();
  const suppressions = await db
    .selectFrom('suppressions')
    .select(['email', 'reason', 'email_id'])
    .where('team_id', '=', teamId)
    .orderBy('email')
    .execute();
  return { status: email.status, events, suppressions };
}

// The sign-in-mail queue: each sign-in by email is mailed once through the mail transport, from
// sign-in@HERALD_MAIL_DOMAIN, as team notices are (src/notices/): Herald's own mail to a member,
// not a team's email. A team's emails are readable by its keys (GET /v1/emails/{id}), so a link
// stored there would let any key of any team the address belongs to sign in as it. The link and
// code wait in the request row encrypted and are erased once handed to the transport or given up;
// a sign-in that expired or was used before its turn is not mailed. An invite's mail says who added
// the address to which team above the link and code. With the log transport the mail lands in the
// outbox (`herald admin outbox`).
import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { MailTransport } from '../adapters/mail-transport/index.ts';
import type { Secrets } from '../platform/crypto.ts';
import { escapeHtml } from '../platform/escape-html.ts';
import { defineQueue, PermanentJobError, type Queue } from '../queue/index.ts';
import {
  SIGN_IN_MAIL_CLAIMED,
  SIGN_IN_MAIL_GIVEN_UP,
  SIGN_IN_MAIL_SENT,
  SIGN_IN_MAIL_WAITING,
} from './sign-in-queries.ts';
import { SIGN_IN_MAIL_QUEUE, SIGN_IN_TTL_MS, type SignInMail } from './sign-in.ts';

interface SignInMailRow {
  id: string;
  email: string;
  mail_sealed: string;
  expires_at: Date;
  used_at: Date | null;
}

interface SignInMailDeps {
  transport: MailTransport;
  mailDomain: string;
  secrets: Secrets;
  /** DKIM-signs Herald's own mail with the built-in domain's key (emails' signAsHerald, given by the worker). */
  sign: (raw: Buffer, at: Date) => Promise<Buffer>;
}

const MINUTES = SIGN_IN_TTL_MS / 60_000;

// The operator names teams (admin API) and members name themselves: one line each in the mail.
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What the mail says it is: a sign-in someone asked for, or an invite (who added you to which team). */
function purpose(mail: SignInMail) {
  if (!mail.invite)
    return {
      subject: 'Sign in to Herald',
      intro: [] as string[],
      ignore: 'If you did not ask to sign in, ignore this email: nobody can sign in without it.',
    };
  const teamName = oneLine(mail.invite.teamName);
  return {
    subject: `You were added to the team ${teamName} on Herald`,
    intro: [`${oneLine(mail.invite.invitedBy)} added you to the team ${teamName} on Herald.`],
    ignore:
      'After that, sign in with this address on the sign-in page. If you did not expect this, ignore this email: ' +
      'nobody can sign in without it.',
  };
}

function compose(from: string, to: string, mail: SignInMail, mailDomain: string): Promise<Buffer> {
  const { subject, intro, ignore } = purpose(mail);
  const text = [
    ...intro.flatMap((line) => [line, '']),
    'Sign in to Herald with this link:',
    '',
    `  ${mail.url}`,
    '',
    `Or, on another device, enter this code: ${mail.code}`,
    '',
    `The link and the code work once, for ${MINUTES} minutes; using either one ends both.`,
    ignore,
  ].join('\n');
  const url = escapeHtml(mail.url);
  const html =
    intro.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p>Sign in to Herald:</p><p><a href="${url}">${url}</a></p>` +
    `<p>Or, on another device, enter this code: <strong style="font-size:1.4em;letter-spacing:0.2em">${escapeHtml(mail.code)}</strong></p>` +
    `<p>The link and the code work once, for ${MINUTES} minutes; using either one ends both. ` +
    `${escapeHtml(ignore)}</p>`;
  const composer = new MailComposer({
    from: `Herald <${from}>`,
    to,
    subject,
    text,
    html,
    messageId: `<sign-in-${randomUUID()}@${mailDomain}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
  });
  return composer.compile().build();
}

export function signInMailQueue(deps: SignInMailDeps): Queue {
  const from = `sign-in@${deps.mailDomain}`;
  return defineQueue<SignInMailRow>({
    name: SIGN_IN_MAIL_QUEUE,
    table: 'sign_in_requests',
    idType: 'text',
    dueColumn: 'mail_due_at',
    attemptsColumn: 'mail_attempts',
    readyWhere: SIGN_IN_MAIL_WAITING,
    claimReturning: SIGN_IN_MAIL_CLAIMED,
    batchSize: 20,
    leaseMs: 60_000,
    // A sign-in lasts 15 minutes: a few quick retries, then it is not worth sending.
    maxAttempts: 5,
    backoff: { baseMs: 15_000, maxMs: 2 * 60_000 },
    handleRow: async (row, ctx) => {
      if (row.used_at !== null || row.expires_at <= ctx.clock.now())
        throw new PermanentJobError('the sign-in expired or was used before its email was sent');
      const mail = JSON.parse(deps.secrets.decrypt(row.mail_sealed)) as SignInMail;
      const raw = await deps.sign(await compose(from, row.email, mail, deps.mailDomain), ctx.clock.now());
      const [outcome] = (await deps.transport.send({ from, to: [row.email] }, raw)).recipients;
      if (outcome?.status === 'accepted') return;
      // The reply names the recipient's server's reason, never the link or the code.
      if (outcome?.status === 'permanent') throw new PermanentJobError(`refused: ${outcome.response}`);
      throw new Error(`not accepted yet: ${outcome?.response ?? 'no answer'}`);
    },
    onDone: SIGN_IN_MAIL_SENT,
    onFailed: SIGN_IN_MAIL_GIVEN_UP,
  });
}

// Helpers of the one-time code tests: requests, the code as its recipient gets it (the stored
// message's text, the same bytes the delivery worker sends), fresh recipients and the email codes' bed.
import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../support/app.ts';
import { bearer } from '../support/factory.ts';
import { startRelayDelivery } from '../emails/delivery-support.ts';

export function verify(app: FastifyInstance, key: string) {
  return {
    send: (payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/api/v1/verify/send', headers: bearer(key), payload }),
    check: (payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/api/v1/verify/check', headers: bearer(key), payload }),
    get: (id: string) => app.inject({ method: 'GET', url: `/api/v1/verify/${id}`, headers: bearer(key) }),
  };
}

/** The code in an email's stored text part (the built-in message). */
export async function codeInEmail(t: TestApp, emailId: string): Promise<string> {
  const row = await t.deps.db.selectFrom('emails').select('text').where('id', '=', emailId).executeTakeFirstOrThrow();
  const match = /code is:\s+(\d{4,8})/.exec(row.text ?? '');
  if (!match) throw new Error(`no code in email ${emailId}`);
  return match[1]!;
}

/** The code in an SMS code's stored text (`<appName>: your code is <code>. ...`). */
export async function codeInSms(t: TestApp, verificationId: string): Promise<string> {
  const row = await t.deps.db
    .selectFrom('verifications as v')
    .innerJoin('sms_messages as m', 'm.id', 'v.sms_id')
    .select('m.body')
    .where('v.id', '=', verificationId)
    .executeTakeFirstOrThrow();
  const match = /your code is (\d{4,8})\./.exec(row.body);
  if (!match) throw new Error(`no code in the SMS of ${verificationId}`);
  return match[1]!;
}

/** A code that is not `code`, of the same length. */
export const wrongCode = (code: string) => code.replace(/^./, (d) => String((Number(d) + 1) % 10));

export async function countRows(t: TestApp, table: 'verifications' | 'emails' | 'sms_messages', teamId: number) {
  const row = await t.deps.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many recipients fresh() has made in this test file (a live binding: it counts on). */
export let recipientsMade = 0;
/** A fresh recipient per send, so that limits and velocity signals stay out of the way. */
export const fresh = (domain = 'example.com') => `user${++recipientsMade}.${Date.now()}@${domain}`;

/** The email code tests' bed: a relay delivery to a loopback SMTP sink, and its team. */
export async function startEmailCodeBed() {
  const r = await startRelayDelivery();
  return { r, team: r.team };
}

// What the session tests share: signing in through the real endpoints (the email read back from the
// log transport's outbox, or an operator's link), the cookie of an answer, and cookie requests with
// or without the CSRF token and Origin a browser would send.
import { heraldMailSigner } from '../../src/worker.ts';
import type { LightMyRequestResponse } from 'fastify';
import { simpleParser } from 'mailparser';
import { expect } from 'vitest';
import { QueueRunner } from '../../src/queue/index.ts';
import { signInMailQueue } from '../../src/sessions/index.ts';
import { TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let clients = 0;
/** A client address of its own, so the per-client sign-in limit of one test does not reach another's. */
export const freshClient = () => `10.45.${Math.floor(++clients / 250)}.${(clients % 250) + 1}`;

/** Sends the queued sign-in mail through the log transport (into the outbox). */
export async function sendSignInMail(t: TestApp): Promise<void> {
  const runner = new QueueRunner({
    database: t.deps.database,
    queues: [
      signInMailQueue({
        transport: t.deps.mailTransport,
        mailDomain: t.deps.config.mailDomain,
        secrets: t.deps.secrets,
        sign: heraldMailSigner(t.deps),
      }),
    ],
    clock: t.clock,
    pollMs: 50,
  });
  await runner.start();
  try {
    runner.wake();
    await runner.idle();
  } finally {
    await runner.stop();
  }
}

export interface SignInEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  url: string;
  token: string;
  code: string;
}

/** The sign-in emails the outbox holds for `email`, oldest first. */
export async function signInEmails(t: TestApp, email: string): Promise<SignInEmail[]> {
  const rows = await t.deps.db
    .selectFrom('outbox')
    .select(['envelope_from', 'envelope_to', 'raw'])
    .where('envelope_from', '=', `sign-in@${t.deps.config.mailDomain}`)
    .orderBy('id')
    .execute();
  const mine = rows.filter((row) => (row.envelope_to as string[]).includes(email));
  return Promise.all(
    mine.map(async (row) => {
      const parsed = await simpleParser(Buffer.from(row.raw));
      const text = parsed.text ?? '';
      const url = /(\S+\/sign-in\/[A-Za-z0-9_-]{43})/.exec(text)?.[1];
      const code = /enter this code: (\d{6})/.exec(text)?.[1];
      expect(url, text).toBeDefined();
      expect(code, text).toBeDefined();
      return {
        from: row.envelope_from,
        to: row.envelope_to as string[],
        subject: parsed.subject ?? '',
        text,
        html: parsed.html || '',
        url: url!,
        token: url!.split('/').pop()!,
        code: code!,
      };
    }),
  );
}

/** POST /v1/session/sign-in from a client address. */
export function requestSignIn(t: TestApp, email: string, client = freshClient(), headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/session/sign-in',
    payload: { email },
    remoteAddress: client,
    headers,
  });
}

/** POST /v1/session with a link's token or an email and code. */
export function createSession(
  t: TestApp,
  body: { token: string } | { email: string; code: string },
  headers: Record<string, string> = {},
) {
  return t.app.inject({ method: 'POST', url: '/api/v1/session', payload: body, remoteAddress: freshClient(), headers });
}

/** Asks for a sign-in email, sends it, and answers the newest one for the address. */
export async function emailedSignIn(t: TestApp, email: string): Promise<SignInEmail> {
  expect((await requestSignIn(t, email)).statusCode).toBe(202);
  await sendSignInMail(t);
  const emails = await signInEmails(t, email);
  expect(emails.length).toBeGreaterThan(0);
  return emails.at(-1)!;
}

/** The herald_session cookie an answer sets: its value and attributes. */
export function setCookieOf(response: LightMyRequestResponse): { value: string; attributes: string[] } {
  const header = response.headers['set-cookie'];
  const line = (Array.isArray(header) ? header : [header]).find((h) => h?.startsWith('herald_session='));
  expect(line, JSON.stringify(response.headers)).toBeDefined();
  const [pair, ...attributes] = line!.split(';').map((part) => part.trim());
  return { value: pair!.slice('herald_session='.length), attributes };
}

export interface Browser {
  cookie: string;
  csrfToken: string;
  /** A request as the dashboard makes it: the cookie, and for writes X-CSRF-Token and Origin. */
  call(
    method: Method,
    url: string,
    options?: { payload?: object; team?: number; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** The cookie alone: no CSRF token, no Origin. */
  bare(
    method: Method,
    url: string,
    options?: { payload?: object; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
}

/** Signs in with an operator's link (the admin API) and answers a browser holding the cookie. */
export async function signedIn(t: TestApp, email: string): Promise<Browser> {
  const link = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/sign-in-links',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    payload: { email },
  });
  expect(link.statusCode, link.body).toBe(201);
  const token = (link.json().url as string).split('/').pop()!;
  const session = await createSession(t, { token });
  expect(session.statusCode, session.body).toBe(200);
  return browserOf(t, setCookieOf(session).value, session.json().csrfToken);
}

export function browserOf(t: TestApp, cookieValue: string, csrfToken: string): Browser {
  const cookie = `herald_session=${cookieValue}`;
  const origin = new URL(t.deps.config.publicUrl).origin;
  const inject = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers, ...(payload === undefined ? {} : { payload }) });
  return {
    cookie,
    csrfToken,
    call(method, url, options = {}) {
      const headers: Record<string, string> = { cookie, ...options.headers };
      if (method !== 'GET') Object.assign(headers, { 'x-csrf-token': csrfToken, origin });
      if (options.team !== undefined) headers['x-herald-team'] = String(options.team);
      return inject(method, url, headers, options.payload);
    },
    bare(method, url, options = {}) {
      return inject(method, url, { cookie, ...options.headers }, options.payload);
    },
  };
}

// queueEmails: another area's send inside its own transaction (src/emails/queue-emails.ts). The
// email commits or rolls back with the caller's rows; the rules and errors are the HTTP route's.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queueEmails } from '../../src/emails/index.ts';
import { usageOfDay } from '../../src/emails/limits.ts';
import { systemPrincipal } from '../../src/platform/auth/system-principal.ts';
import { ApiError } from '../../src/platform/errors.ts';
import { call, startEmailHarness, storedEmailCount, type EmailHarness, type SendingTeam } from './support.ts';

let h: EmailHarness;
let team: SendingTeam;
beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team();
});
afterAll(async () => h.close());

const db = () => h.t.deps.db;
const now = () => h.t.clock.now();
const principal = () => systemPrincipal(team.id, 'journey');
const used = async () => {
  const u = await usageOfDay(db(), team.id, now().toISOString().slice(0, 10));
  return u.transactional + u.marketing;
};

/** queueEmails in a transaction of its own; the error it threw, if any. */
async function queue(inputs: Parameters<typeof queueEmails>[2]) {
  return db()
    .transaction()
    .execute((tx) => queueEmails(tx, principal(), inputs, { now: now() }));
}
async function refusal(inputs: Parameters<typeof queueEmails>[2]): Promise<ApiError> {
  const error = await queue(inputs).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

it('stores the email, its first event and recipients in the caller transaction, sent by system:<purpose>', async () => {
  const [id] = await queue([{ from: team.from(), to: 'Ada <ADA@example.com>', subject: 'Hi', text: 'x' }]);
  const row = await db()
    .selectFrom('emails')
    .select(['api_key_id', 'status'])
    .where('team_id', '=', team.id)
    .where('id', '=', id!)
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ api_key_id: 'system:journey', status: 'QUEUED' });
  const events = await db().selectFrom('email_events').select('status').where('email_id', '=', id!).execute();
  expect(events.map((e) => e.status)).toEqual(['QUEUED']);
  const recipients = await db().selectFrom('email_recipients').select('address').where('email_id', '=', id!).execute();
  expect(recipients.map((r) => r.address)).toEqual(['ada@example.com']);
});

it('rolls back with the caller: nothing stored, nothing counted', async () => {
  const [emails, usage] = [await storedEmailCount(h.t, team.id), await used()];
  const failure = new Error('the caller failed after queueEmails');
  await expect(
    db()
      .transaction()
      .execute(async (tx) => {
        await queueEmails(tx, principal(), [{ from: team.from(), to: 'b@example.com', subject: 'S', text: 'x' }], {
          now: now(),
        });
        throw failure;
      }),
  ).rejects.toBe(failure);
  expect(await storedEmailCount(h.t, team.id)).toBe(emails);
  expect(await used()).toBe(usage);
});

it('gives the HTTP route errors: unverified domain, 50 recipients, missing template, batch field names', async () => {
  const stranger = await refusal([{ from: 'x@unknown.example.org', to: 'a@example.com', subject: 'S', text: 'x' }]);
  expect([stranger.status, stranger.message]).toEqual([
    400,
    'from: unknown.example.org is not a verified domain of this team',
  ]);
  const many = Array.from({ length: 51 }, (_, i) => `r${i}@example.com`);
  expect((await refusal([{ from: team.from(), to: many, subject: 'S', text: 'x' }])).status).toBe(422);
  const missing = await refusal([{ from: team.from(), to: 'a@example.com', templateId: 'tpl_missing' }]);
  expect([missing.status, missing.message]).toEqual([404, 'templateId: template not found']);
  const second = await refusal([
    { from: team.from(), to: 'a@example.com', subject: 'S', text: 'x' },
    { from: 'x@unknown.example.org', to: 'a@example.com', subject: 'S', text: 'x' },
  ]);
  expect(second.message).toMatch(/^\[1\]\.from: /);
  // The route's schema: a subject over 998 characters is a 400 naming the field.
  const long = await refusal([{ from: team.from(), to: 'a@example.com', subject: 'x'.repeat(999), text: 'x' }]);
  expect([long.status, long.message.startsWith('subject: ')]).toEqual([400, true]);
});

it('renders templates with variables', async () => {
  const template = await call(h.app, team.key, 'POST', '/v1/templates', {
    name: 'Code',
    subject: 'Your code {{code}}',
    html: '<p>{{code}}</p>',
  });
  expect(template.statusCode, template.body).toBe(200);
  const [id] = await queue([
    { from: team.from(), to: 'c@example.com', templateId: template.json().id, variables: { code: '123456' } },
  ]);
  const row = await db()
    .selectFrom('emails')
    .select(['subject', 'html'])
    .where('id', '=', id!)
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ subject: 'Your code 123456', html: '<p>123456</p>' });
});

it('over the plan limit: 429 and nothing stored', async () => {
  const free = await h.team({ plan: 'free' });
  const many = Array.from({ length: 50 }, (_, i) => `q${i}@example.com`);
  const send = () =>
    db()
      .transaction()
      .execute((tx) =>
        queueEmails(
          tx,
          systemPrincipal(free.id, 'verification'),
          [{ from: free.from(), to: many, subject: 'S', text: 'x' }],
          {
            now: now(),
          },
        ),
      );
  await send();
  await send();
  await expect(send()).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED' });
  expect(await storedEmailCount(h.t, free.id)).toBe(2);
});

// The two store paths of POST /v1/emails (src/emails/send.ts), told apart by the counter
// herald_email_sends_total{path}: the one-statement send for a pro team's plain or template send
// once the day's usage shards exist; the transaction send for the first send of the day, replies,
// free teams (whose monthly limit the one-statement send cannot check), and whenever the
// one-statement send stores nothing (a suppressed or unsubscribed recipient).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emails, startEmailHarness, type EmailHarness } from './support.ts';

let h: EmailHarness;
beforeAll(async () => {
  h = await startEmailHarness();
});
afterAll(async () => h.close());

async function sendsByPath(): Promise<Record<'one-statement' | 'transaction', number>> {
  const text = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
  const count = (path: string) =>
    Number(new RegExp(`^herald_email_sends_total\\{path="${path}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { 'one-statement': count('one-statement'), transaction: count('transaction') };
}

/** Runs `send` and answers which path stored it. */
async function pathOf(send: () => Promise<{ statusCode: number; body: string }>): Promise<string> {
  const before = await sendsByPath();
  const response = await send();
  expect(response.statusCode, response.body).toBe(200);
  const after = await sendsByPath();
  const taken = (['one-statement', 'transaction'] as const).filter((p) => after[p] > before[p]);
  expect(taken).toHaveLength(1);
  return taken[0]!;
}

const eventsOf = async (key: string, id: string) =>
  (
    await h.app.inject({ method: 'GET', url: `/api/v1/emails/${id}`, headers: { authorization: `Bearer ${key}` } })
  ).json().emailEvents as { status: string; data: unknown }[];

describe('store paths', () => {
  it('a pro team: the first send of the day is a transaction send, the next plain and template sends one statement', async () => {
    const team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    const plain = (to: string) => () => api.send({ from: team.from(), to, subject: 'S', text: 'x' });
    expect(await pathOf(plain('first@example.com'))).toBe('transaction');
    expect(await pathOf(plain('second@example.com'))).toBe('one-statement');
    expect(await pathOf(() => api.batch([{ from: team.from(), to: 'b1@example.com', subject: 'S', text: 'x' }]))).toBe(
      'one-statement',
    );

    const template = await call(h.app, team.key, 'POST', '/v1/templates', {
      name: 'Receipt',
      subject: 'Receipt for {{name}}',
      html: '<p>Paid, {{name}}</p>',
    });
    expect(template.statusCode, template.body).toBe(200);
    const templateId = template.json().id as string;
    const viaTemplate = await api.send({
      from: team.from(),
      to: 'third@example.com',
      templateId,
      variables: { name: 'Ada' },
    });
    expect(viaTemplate.statusCode).toBe(200);
    const stored = await api.get(viaTemplate.json().emailId);
    expect(stored.json()).toMatchObject({ subject: 'Receipt for Ada', html: '<p>Paid, Ada</p>' });
    expect(
      await pathOf(() =>
        api.send({ from: team.from(), to: 'fourth@example.com', templateId, variables: { name: 'B' } }),
      ),
    ).toBe('one-statement');

    // A reply needs the email it answers read first: transaction send.
    const original = await api.sent({ from: team.from(), to: 'fifth@example.com', subject: 'S', text: 'x' });
    expect(
      await pathOf(() =>
        api.send({ from: team.from(), to: 'fifth@example.com', subject: 'Re', text: 'y', inReplyToId: original }),
      ),
    ).toBe('transaction');
  });

  it('a free team never tries the one-statement send (its monthly limit needs the month read under the lock)', async () => {
    const team = await h.team({ plan: 'free' });
    const api = emails(h.app, team.key);
    for (const to of ['f1@example.com', 'f2@example.com', 'f3@example.com'])
      expect(await pathOf(() => api.send({ from: team.from(), to, subject: 'S', text: 'x' }))).toBe('transaction');
  });

  it('a suppressed or (for MARKETING) unsubscribed recipient: the one-statement send stores nothing, the transaction send records why', async () => {
    const team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    await api.sent({ from: team.from(), to: 'warm@example.com', subject: 'S', text: 'x' });
    const db = h.t.deps.db;
    await db
      .insertInto('suppressions')
      .values({
        team_id: team.id,
        email: 'gone@example.com',
        reason: 'BOUNCED',
        email_id: null,
        created_at: new Date(),
      })
      .execute();
    let id = '';
    expect(
      await pathOf(async () => {
        const response = await api.send({
          from: team.from(),
          to: ['gone@example.com', 'ok@example.com'],
          subject: 'S',
          text: 'x',
        });
        id = response.json().emailId;
        return response;
      }),
    ).toBe('transaction');
    expect((await eventsOf(team.key, id)).map((e) => e.status)).toEqual(['SUPPRESSED', 'QUEUED']);

    await db
      .insertInto('unsubscribes')
      .values({ team_id: team.id, email: 'stop@example.com', created_at: new Date() })
      .execute();
    const news = await call(h.app, team.key, 'POST', '/v1/templates', {
      name: 'News',
      subject: 'News',
      type: 'MARKETING',
      html: '<p>News</p>',
    });
    const templateId = news.json().id as string;
    const marketing = () => api.send({ from: team.from(), to: ['stop@example.com', 'reader@example.com'], templateId });
    expect(
      await pathOf(async () => {
        const response = await marketing();
        id = response.json().emailId;
        return response;
      }),
    ).toBe('transaction');
    expect(await eventsOf(team.key, id)).toMatchObject([
      { status: 'SUPPRESSED', data: { recipients: ['stop@example.com'], reason: 'unsubscribed' } },
      { status: 'QUEUED' },
    ]);
    // Transactional mail still reaches the address, in one statement.
    expect(await pathOf(() => api.send({ from: team.from(), to: 'stop@example.com', subject: 'S', text: 'x' }))).toBe(
      'one-statement',
    );
  });
  it('a one-time code and its email: stored together on either path, the code row naming its email', async () => {
    const team = await h.team({ plan: 'pro' });
    const sendCode = (to: string) => () =>
      h.app.inject({
        method: 'POST',
        url: '/api/v1/verify/send',
        headers: { authorization: `Bearer ${team.key}` },
        payload: { to, from: team.from() },
      });
    const created = async (send: () => Promise<{ statusCode: number; body: string }>) => {
      const before = await sendsByPath();
      const response = await send();
      expect(response.statusCode, response.body).toBe(201);
      const after = await sendsByPath();
      const path = (['one-statement', 'transaction'] as const).find((p) => after[p] > before[p]) ?? 'transaction';
      return { path, body: JSON.parse(response.body) as { id: string; emailId: string } };
    };
    const first = await created(sendCode('code1@example.com'));
    const second = await created(sendCode('code2@example.com'));
    expect([first.path, second.path]).toEqual(['transaction', 'one-statement']);
    for (const { body } of [first, second]) {
      const row = await h.t.deps.db
        .selectFrom('verifications as v')
        .innerJoin('emails as e', 'e.id', 'v.email_id')
        .select(['v.status', 'v.code_hash', 'v.risk_reasons', 'e.status as email_status'])
        .where('v.id', '=', body.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', email_status: 'QUEUED', risk_reasons: [] });
      expect(row.code_hash).toHaveLength(32);
    }
  });
});

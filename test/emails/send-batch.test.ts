// The send routes' shared transaction (src/emails/send-batch.ts): concurrent callers of a process
// go through queueEmails in one transaction, each checked alone. A caller's refusal (bad input,
// unverified domain, over the plan's limit) is its own answer and the others still commit; a
// caller's own row (a one-time code) commits with its email.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendBatching, type SendBatching } from '../../src/emails/index.ts';
import { usageOfDay } from '../../src/emails/limits.ts';
import type { SendJob } from '../../src/emails/send-batch.ts';
import { systemPrincipal } from '../../src/platform/auth/system-principal.ts';
import { dailySendLimit } from '../../src/platform/plans.ts';
import { emails, startEmailHarness, storedEmailCount, type EmailHarness } from './support.ts';

let h: EmailHarness;
let batching: SendBatching;
beforeAll(async () => {
  h = await startEmailHarness();
  batching = sendBatching(h.t.deps.db);
});
afterAll(async () => h.close());

const job = (teamId: number, from: string, to: string | string[], extra: Partial<SendJob> = {}): SendJob => ({
  principal: systemPrincipal(teamId, 'journey'),
  inputs: [{ from, to, subject: 'S', text: 'x' }],
  batch: false,
  now: h.t.clock.now(),
  ...extra,
});

/** Submits every job in the same tick (after the first two, they share one batch); outcome per job. */
const submitAll = (jobs: SendJob[]) =>
  Promise.all(
    jobs.map((j) =>
      batching.submit(j).then(
        (sent) => ({ ids: sent.ids }),
        (error: unknown) => ({ error: error as { status: number; code: string; message: string } }),
      ),
    ),
  );

describe('concurrent sends in one transaction', () => {
  it('stores each caller, and refuses a bad one alone', async () => {
    const a = await h.team({ plan: 'pro' });
    const b = await h.team({ plan: 'pro' });
    const outcomes = await submitAll([
      job(b.id, b.from(), 'b1@example.com'),
      job(a.id, a.from(), 'a1@example.com'),
      job(a.id, 'x@unverified.example', 'a2@example.com'),
      job(b.id, b.from(), 'b2@example.com'),
      job(a.id, a.from(), 'a3@example.com', { inputs: [{ from: a.from(), to: 'a3@example.com', subject: '' }] }),
      job(b.id, b.from(), 'b3@example.com', {
        inputs: [{ from: b.from(), to: 'b3@example.com', subject: 'S', text: 'x', inReplyToId: 'em_missing' }],
      }),
      job(a.id, a.from(), 'a4@example.com'),
    ]);
    expect(outcomes.map((o) => ('ids' in o ? 200 : o.error.status))).toEqual([200, 200, 400, 200, 400, 404, 200]);
    expect(outcomes[2]).toMatchObject({ error: { message: expect.stringContaining('from:') } });
    expect(outcomes[5]).toMatchObject({ error: { message: expect.stringContaining('inReplyToId') } });
    expect(await storedEmailCount(h.t, a.id)).toBe(2);
    expect(await storedEmailCount(h.t, b.id)).toBe(2);
    const day = h.t.clock.now().toISOString().slice(0, 10);
    expect(await usageOfDay(h.t.deps.db, a.id, day)).toEqual({ transactional: 2, marketing: 0 });
  });

  it("over the plan's daily limit: the caller past it gets 429, those before it are stored", async () => {
    const team = await h.team({ plan: 'free' });
    const daily = dailySendLimit('free')!;
    const addresses = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);
    const fill = Math.floor(daily / 50);
    for (let i = 0; i < fill - 1; i++)
      expect((await submitAll([job(team.id, team.from(), addresses(50, `f${i}-`))]))[0]).toHaveProperty('ids');
    const left = daily - (fill - 1) * 50;
    const outcomes = await submitAll([
      job(team.id, team.from(), 'warm1@example.com'),
      job(team.id, team.from(), 'warm2@example.com'),
      job(team.id, team.from(), addresses(left - 2, 'fits-')),
      job(team.id, team.from(), 'one-too-many@example.com'),
    ]);
    expect(outcomes.map((o) => ('ids' in o ? 200 : o.error.status))).toEqual([200, 200, 200, 429]);
    expect(outcomes[3]).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    const used = await usageOfDay(h.t.deps.db, team.id, h.t.clock.now().toISOString().slice(0, 10));
    expect(used.transactional).toBe(daily);
  });

  it("a caller's own row commits with its email, one write per batch, none for a refused send", async () => {
    const team = await h.team({ plan: 'pro' });
    const rows: string[][] = [];
    let writes = 0;
    const alongside = {
      row: (ids: string[]) => ids,
      write: async (_tx: unknown, written: string[][]) => {
        writes += 1;
        rows.push(...written);
      },
    };
    const outcomes = await submitAll([
      job(team.id, team.from(), 'r1@example.com', { alongside }),
      job(team.id, team.from(), 'r2@example.com', { alongside }),
      job(team.id, 'x@unverified.example', 'r3@example.com', { alongside }),
      job(team.id, team.from(), 'r4@example.com', { alongside }),
      job(team.id, team.from(), 'r5@example.com', { alongside }),
      job(team.id, team.from(), 'r6@example.com', { alongside }),
    ]);
    const stored = outcomes.flatMap((o) => ('ids' in o ? o.ids : []));
    expect(stored).toHaveLength(5);
    expect(rows.flat().sort()).toEqual([...stored].sort());
    // The first two callers start a batch each; the other four share the third.
    expect(writes).toBe(3);
  });

  it('a one-time code through the API: its verification row names its email, both stored', async () => {
    const team = await h.team({ plan: 'pro' });
    const responses = await Promise.all(
      ['code1@example.com', 'code2@example.com', 'code3@example.com'].map((to) =>
        h.app.inject({
          method: 'POST',
          url: '/api/v1/verify/send',
          headers: { authorization: `Bearer ${team.key}` },
          payload: { to, from: team.from() },
        }),
      ),
    );
    for (const response of responses) {
      expect(response.statusCode, response.body).toBe(201);
      const row = await h.t.deps.db
        .selectFrom('verifications as v')
        .innerJoin('emails as e', 'e.id', 'v.email_id')
        .select(['v.status', 'v.code_hash', 'e.status as email_status'])
        .where('v.id', '=', (response.json() as { id: string }).id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', email_status: 'QUEUED' });
      expect(row.code_hash).toHaveLength(32);
    }
  });

  it('the batch route: one message over the recipient rule refuses the whole batch, nothing stored', async () => {
    const team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    const many = Array.from({ length: 51 }, (_, i) => `m${i}@example.com`);
    const response = await api.batch([
      { from: team.from(), to: 'fine@example.com', subject: 'S', text: 'x' },
      { from: team.from(), to: many, subject: 'S', text: 'x' },
    ]);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toContain('[1]');
    const unverified = await api.batch([
      { from: team.from(), to: 'fine@example.com', subject: 'S', text: 'x' },
      { from: 'x@unverified.example', to: 'fine@example.com', subject: 'S', text: 'x' },
    ]);
    expect(unverified.statusCode).toBe(400);
    expect(unverified.json().error.message).toContain('[1].from');
    expect(await storedEmailCount(h.t, team.id)).toBe(0);
  });
});

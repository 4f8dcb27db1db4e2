// Idempotency-Key on the send endpoints (platform/idempotency.ts, as on every idempotent route): the
// key is claimed before the send and completed with the response in the send's own transaction, so a
// stored email never leaves its key in flight; replays are the same bytes; concurrent duplicates
// store one email; failures free the key and expired keys are taken over.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emails, startEmailHarness, storedEmailCount, type EmailHarness, type SendingTeam } from './support.ts';

let h: EmailHarness;
let team: SendingTeam;
let api: ReturnType<typeof emails>;
let counter = 0;

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team({ plan: 'pro' });
  api = emails(h.app, team.key);
});
afterAll(async () => h.close());

const message = (extra: object = {}) => ({
  from: team.from(),
  to: 'reader@example.com',
  subject: 'Keyed',
  text: 'Hello',
  ...extra,
});
const freshKey = () => ({ 'idempotency-key': `k-${Date.now()}-${(counter += 1)}` });

async function keyRow(key: string) {
  return h.t.deps.db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('team_id', '=', team.id)
    .where('key', '=', key)
    .executeTakeFirst();
}

it('stores the key completed with the email, and replays the same bytes', async () => {
  const headers = freshKey();
  const first = await api.send(message(), headers);
  expect(first.statusCode, first.body).toBe(200);
  const row = await keyRow(headers['idempotency-key']);
  expect(row).toMatchObject({
    state: 'completed',
    response_status: 200,
    response_body: first.body,
    content_type: first.headers['content-type'],
  });
  const again = await api.send(message(), headers);
  expect(again.statusCode).toBe(200);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toBe(first.body);
  expect(again.headers['content-type']).toBe(first.headers['content-type']);
});

it('a batch replays the same bytes', async () => {
  const headers = freshKey();
  const batch = [message(), message({ to: 'second@example.com' })];
  const first = await api.batch(batch, headers);
  expect(first.statusCode, first.body).toBe(200);
  const again = await api.batch(batch, headers);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toBe(first.body);
});

it('the same key sent 10 times at once stores one email; the others replay it or are told it is in flight', async () => {
  const headers = freshKey();
  const before = await storedEmailCount(h.t, team.id);
  const responses = await Promise.all(Array.from({ length: 10 }, () => api.send(message(), headers)));
  expect(await storedEmailCount(h.t, team.id)).toBe(before + 1);
  const ok = responses.filter((r) => r.statusCode === 200);
  expect(ok.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
  expect(new Set(ok.map((r) => r.json().emailId)).size).toBe(1);
  for (const r of responses.filter((r) => r.statusCode !== 200)) expect(r.json().error.code).toBe('NOT_UNIQUE');
});

it('a batch refused for one message leaves the key free; the corrected batch then goes with it', async () => {
  const headers = freshKey();
  const bad = [message(), message({ from: 'x@unknown.example.org' })];
  const refused = await api.batch(bad, headers);
  expect(refused.statusCode).toBe(400);
  expect(refused.json().error.message).toContain('[1].from');
  expect(await keyRow(headers['idempotency-key'])).toBeUndefined();
  const before = await storedEmailCount(h.t, team.id);
  const good = [message(), message({ to: 'other@example.com' })];
  const first = await api.batch(good, headers);
  expect(first.statusCode, first.body).toBe(200);
  expect(await storedEmailCount(h.t, team.id)).toBe(before + 2);
  const again = await api.batch(good, headers);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toBe(first.body);
  expect(await storedEmailCount(h.t, team.id)).toBe(before + 2);
  expect((await api.batch(bad, headers)).statusCode).toBe(409);
});

it('a different body with a used key is 409 and stores nothing', async () => {
  const headers = freshKey();
  await api.send(message(), headers);
  const before = await storedEmailCount(h.t, team.id);
  const other = await api.send(message({ subject: 'Other' }), headers);
  expect(other.statusCode).toBe(409);
  expect(other.json().error.code).toBe('NOT_UNIQUE');
  expect(await storedEmailCount(h.t, team.id)).toBe(before);
});

it('a reply: the key completed with the response, replayed with the same email id', async () => {
  const original = await api.sent(message());
  const headers = freshKey();
  const first = await api.send(message({ inReplyToId: original }), headers);
  expect(first.statusCode, first.body).toBe(200);
  expect(await keyRow(headers['idempotency-key'])).toMatchObject({ state: 'completed', response_body: first.body });
  const again = await api.send(message({ inReplyToId: original }), headers);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.json().emailId).toBe(first.json().emailId);
});

it('a refused send leaves the key free; an expired key is taken over', async () => {
  const headers = freshKey();
  const refused = await api.send(message({ from: 'x@unknown.example.org' }), headers);
  expect(refused.statusCode).toBe(400);
  expect(await keyRow(headers['idempotency-key'])).toBeUndefined();
  const first = await api.send(message(), headers);
  expect(first.statusCode).toBe(200);

  await h.t.deps.db
    .updateTable('idempotency_keys')
    .set({ expires_at: new Date(h.t.clock.now().getTime() - 1000) })
    .where('team_id', '=', team.id)
    .where('key', '=', headers['idempotency-key'])
    .execute();
  const before = await storedEmailCount(h.t, team.id);
  const taken = await api.send(message(), headers);
  expect(taken.statusCode).toBe(200);
  expect(taken.headers['idempotent-replayed']).toBeUndefined();
  expect(taken.json().emailId).not.toBe(first.json().emailId);
  expect(await storedEmailCount(h.t, team.id)).toBe(before + 1);
  expect(await keyRow(headers['idempotency-key'])).toMatchObject({ state: 'completed', response_body: taken.body });
});

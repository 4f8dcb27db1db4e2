// POST /v1/emails/batch: at most 100, all or nothing; idempotency of both send endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails, startEmailHarness, storedEmailCount, type EmailHarness, type SendingTeam } from './support.ts';

let h: EmailHarness;
let team: SendingTeam;
let api: ReturnType<typeof emails>;

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team({ plan: 'pro' });
  api = emails(h.app, team.key);
});
afterAll(async () => h.close());

const message = (i = 0) => ({ from: team.from(), to: `b${i}@example.com`, subject: `Batch ${i}`, text: 'Hello' });
const messages = (n: number) => Array.from({ length: n }, (_, i) => message(i));

describe('batch', () => {
  it('100 messages are accepted and answer their ids in order', async () => {
    const response = await api.batch(messages(100));
    expect(response.statusCode, response.body).toBe(200);
    const ids = response.json().data.map((d: { emailId: string }) => d.emailId);
    expect(ids).toHaveLength(100);
    expect(new Set(ids).size).toBe(100);
    expect((await api.get(ids[42])).json().subject).toBe('Batch 42');
  });

  it('101 messages are 400 and store nothing', async () => {
    const before = await storedEmailCount(h.t, team.id);
    expect((await api.batch(messages(101))).statusCode).toBe(400);
    expect(await storedEmailCount(h.t, team.id)).toBe(before);
  });

  it('one message from an unknown domain refuses the whole batch, naming it; nothing is stored', async () => {
    const before = await storedEmailCount(h.t, team.id);
    const batch = messages(5);
    batch[3] = { ...batch[3]!, from: 'x@unknown.example.org' };
    const response = await api.batch(batch);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('[3].from');
    expect(await storedEmailCount(h.t, team.id)).toBe(before);
  });

  it('one message with a bad field refuses the whole batch', async () => {
    const before = await storedEmailCount(h.t, team.id);
    const batch = messages(3);
    batch[1] = { ...batch[1]!, subject: 'x'.repeat(999) };
    expect((await api.batch(batch)).statusCode).toBe(400);
    expect(await storedEmailCount(h.t, team.id)).toBe(before);
  });

  it('one message over 50 recipients refuses the batch with 422', async () => {
    const before = await storedEmailCount(h.t, team.id);
    const batch: object[] = messages(2);
    batch.push({ ...message(9), to: Array.from({ length: 51 }, (_, i) => `m${i}@example.com`) });
    const response = await api.batch(batch);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toContain('51');
    expect(await storedEmailCount(h.t, team.id)).toBe(before);
  });

  it('a domain-limited key: any from outside its domain refuses the batch with 403', async () => {
    const second = await team.addDomain();
    const { key } = await team.makeKey('sending', { domainId: team.domain.id });
    const before = await storedEmailCount(h.t, team.id);
    const response = await emails(h.app, key).batch([message(1), { ...message(2), from: `x@${second.name}` }]);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
    expect(await storedEmailCount(h.t, team.id)).toBe(before);
  });
});

describe('idempotency', () => {
  it('the same key and body return the same emailId and store one email', async () => {
    const before = await storedEmailCount(h.t, team.id);
    const headers = { 'idempotency-key': `send-${Date.now()}` };
    const first = await api.send(message(1), headers);
    const again = await api.send(message(1), headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().emailId).toBe(first.json().emailId);
    expect(await storedEmailCount(h.t, team.id)).toBe(before + 1);
    const other = await api.send(message(2), headers);
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('NOT_UNIQUE');
  });

  it('a batch replays its ids', async () => {
    const headers = { 'idempotency-key': `batch-${Date.now()}` };
    const first = await api.batch(messages(3), headers);
    const again = await api.batch(messages(3), headers);
    expect(again.json()).toEqual(first.json());
  });
});

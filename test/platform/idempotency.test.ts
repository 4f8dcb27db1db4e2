// Idempotency-Key as a platform feature: replay, conflicts, in-flight, expiry, per team, across processes.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IDEMPOTENCY_TTL_MS } from '../../src/platform/idempotency.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';

let runs = 0;
let gate: Promise<void> | null = null;
const probes: FastifyPluginAsync = async (plain) => {
  const api = plain.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/v1/_probe/create',
    { config: { access: 'send', idempotent: true }, schema: { body: z.object({ value: z.string() }) } },
    async (request) => {
      runs += 1;
      if (gate) await gate;
      return { id: `thing_${runs}`, value: request.body.value };
    },
  );
  api.post('/v1/_probe/fail', { config: { access: 'send', idempotent: true } }, async (_request, reply) => {
    runs += 1;
    return reply.code(422).send({ error: { code: 'UNPROCESSABLE_ENTITY', message: 'no' } });
  });
};

let t: TestApp;
let team: TestTeam;
beforeAll(async () => {
  t = await createTestApp({ extraRoutes: probes });
  team = await createTeam(t.app);
});
afterAll(() => t.close());

function send(app: TestApp, key: string | undefined, body: unknown, apiKey = team.key, url = '/api/v1/_probe/create') {
  return app.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(apiKey), ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: body as object,
  });
}

describe('Idempotency-Key', () => {
  it('same key and body returns the original response without running again', async () => {
    const before = runs;
    const first = await send(t, 'k-replay', { value: 'a' });
    const second = await send(t, 'k-replay', { value: 'a' });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(runs - before).toBe(1);
  });

  it('same key with a different body answers 409 NOT_UNIQUE', async () => {
    await send(t, 'k-diff', { value: 'a' });
    const second = await send(t, 'k-diff', { value: 'b' });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('NOT_UNIQUE');
  });

  it('same key while the first request is in flight answers 409', async () => {
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    const before = runs;
    // inject() starts only when awaited or then-ed; Promise.resolve starts it now.
    const first = Promise.resolve(send(t, 'k-flight', { value: 'a' }));
    // The first request holds the key (its handler is waiting at the gate) before the second is sent.
    await expect.poll(() => runs).toBe(before + 1);
    await expect.poll(async () => (await send(t, 'k-flight', { value: 'a' })).statusCode).toBe(409);
    release();
    gate = null;
    expect((await first).statusCode).toBe(200);
    expect((await send(t, 'k-flight', { value: 'a' })).headers['idempotent-replayed']).toBe('true');
  });

  it('keys are per team', async () => {
    const other = await createTeam(t.app);
    const mine = await send(t, 'k-team', { value: 'a' });
    const theirs = await send(t, 'k-team', { value: 'a' }, other.key);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
  });

  it('entries expire after 24 hours', async () => {
    const first = await send(t, 'k-expiry', { value: 'a' });
    t.clock.advance(IDEMPOTENCY_TTL_MS - 1000);
    expect((await send(t, 'k-expiry', { value: 'a' })).json()).toEqual(first.json());
    t.clock.advance(2000);
    const after = await send(t, 'k-expiry', { value: 'a' });
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.json().id).not.toBe(first.json().id);
  });

  it('a failed request frees its key', async () => {
    const before = runs;
    expect((await send(t, 'k-fail', {}, team.key, '/api/v1/_probe/fail')).statusCode).toBe(422);
    expect((await send(t, 'k-fail', {}, team.key, '/api/v1/_probe/fail')).statusCode).toBe(422);
    expect(runs - before).toBe(2);
  });

  it('survives restarts and is shared by every API process (stored in the database)', async () => {
    const first = await send(t, 'k-shared', { value: 'a' });
    const second = await createTestApp({ extraRoutes: probes, clock: t.clock });
    try {
      const replay = await send(second, 'k-shared', { value: 'a' });
      expect(replay.json()).toEqual(first.json());
      expect(replay.headers['idempotent-replayed']).toBe('true');
    } finally {
      await second.close();
    }
  });

  it('key length: 1 and 256 characters accepted, empty and 257 refused with 400', async () => {
    expect((await send(t, 'x', { value: 'a' })).statusCode).toBe(200);
    expect((await send(t, 'y'.repeat(256), { value: 'a' })).statusCode).toBe(200);
    for (const key of ['', 'z'.repeat(257)]) {
      const response = await send(t, key, { value: 'a' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain('Idempotency-Key');
    }
  });
});

// The per-team per-second API limit through HTTP: headers, 429 with Retry-After, reset, per team.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminRequest, bearer, createTeam } from '../support/factory.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-01T10:00:00.000Z'); // at the start of a second window
});
afterAll(() => t.close());

const whoami = (key: string) => t.app.inject({ method: 'GET', url: '/api/v1/whoami', headers: bearer(key) });

describe('per-second API rate limit', () => {
  it('allows apiRateLimit requests a second, then 429 RATE_LIMITED with Retry-After', async () => {
    const team = await createTeam(t.app, { apiRateLimit: 3 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await whoami(team.key));
    expect(answers.slice(0, 3).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((r) => r.headers['ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(answers[0]!.headers['ratelimit-limit']).toBe('3');
    const refused = answers[3]!;
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    t.clock.advance(1000);
    expect((await whoami(team.key)).statusCode).toBe(200);
  });

  it('counts per team, not per key', async () => {
    const team = await createTeam(t.app, { apiRateLimit: 2 });
    const other = await createTeam(t.app, { apiRateLimit: 2 });
    const second = await team.makeKey('full');
    t.clock.advance(1000);
    expect((await whoami(team.key)).statusCode).toBe(200);
    expect((await whoami(second.key)).statusCode).toBe(200);
    expect((await whoami(second.key)).statusCode).toBe(429);
    expect((await whoami(other.key)).statusCode).toBe(200);
  });

  it('a new limit set through the admin API applies at once', async () => {
    const team = await createTeam(t.app, { apiRateLimit: 1 });
    t.clock.advance(1000);
    expect((await whoami(team.key)).statusCode).toBe(200);
    expect((await whoami(team.key)).statusCode).toBe(429);
    await adminRequest(t.app, 'PATCH', `/teams/${team.id}`, { apiRateLimit: 5 });
    expect((await whoami(team.key)).statusCode).toBe(200);
  });

  it('works with Redis counters shared by two API processes', async () => {
    const a = await createTestApp({ config: { redisUrl: 'redis://127.0.0.1:6379' }, clock: t.clock });
    const b = await createTestApp({ config: { redisUrl: 'redis://127.0.0.1:6379' }, clock: t.clock });
    try {
      const team = await createTeam(a.app, { apiRateLimit: 2 });
      t.clock.advance(1000);
      const call = (app: TestApp) =>
        app.app.inject({ method: 'GET', url: '/api/v1/whoami', headers: bearer(team.key) });
      expect((await call(a)).statusCode).toBe(200);
      expect((await call(b)).statusCode).toBe(200);
      expect((await call(a)).statusCode).toBe(429);
      expect((await call(b)).statusCode).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

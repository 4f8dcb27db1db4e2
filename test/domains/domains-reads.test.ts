// Domains through HTTP: list, read, delete and verify requests, bad path ids, and another team's domain
// answering 404 exactly like a missing one, with the contract's flat `{error: string}` bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canSendFrom } from '../../src/domains/index.ts';
import type { TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { call, createDomain, flat, getDomainJson, startDomainsApp } from './support.ts';

let t: TestApp, team: TestTeam, other: TestTeam;
beforeAll(async () => void ({ t, team, other } = await startDomainsApp()));
afterAll(() => t.close());

describe('reads and delete', () => {
  it("lists the team's domains, newest first, and reads one", async () => {
    const own = await createTeam(t.app);
    const a = await createDomain(t.app, own.key);
    const b = await createDomain(t.app, own.key);
    const list = await call(t.app, own.key, 'GET', '/v1/domains');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((d: { id: number }) => d.id)).toEqual([b.id, a.id]);
    expect(await getDomainJson(t.app, own.key, a.id)).toEqual(a);
  });

  it('delete answers {id, success, message}; the domain is gone from every read and cannot send', async () => {
    const own = await createTeam(t.app);
    const kept = await createDomain(t.app, own.key);
    const gone = await createDomain(t.app, own.key);
    const deleted = await call(t.app, own.key, 'DELETE', `/v1/domains/${gone.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id: gone.id, success: true, message: expect.any(String) });

    const get = await call(t.app, own.key, 'GET', `/v1/domains/${gone.id}`);
    expect(get.statusCode).toBe(404);
    expect(get.json()).toEqual(flat);
    expect((await call(t.app, own.key, 'GET', '/v1/domains')).json().map((d: { id: number }) => d.id)).toEqual([
      kept.id,
    ]);
    for (const [method, path] of [
      ['PUT', `/v1/domains/${gone.id}/verify`],
      ['DELETE', `/v1/domains/${gone.id}`],
    ] as const) {
      const response = await call(t.app, own.key, method, path);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(flat);
    }
    expect(await canSendFrom(t.deps.db, own.id, gone.name)).toBe(false);
  });

  it('a path id that is not a number is 400 (flat on verify and delete)', async () => {
    const get = await call(t.app, team.key, 'GET', '/v1/domains/abc');
    expect(get.statusCode).toBe(400);
    expect(get.json().error.code).toBe('BAD_REQUEST');
    for (const [method, path] of [
      ['PUT', '/v1/domains/abc/verify'],
      ['DELETE', '/v1/domains/1.5'],
    ] as const) {
      const response = await call(t.app, team.key, method, path);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(flat);
    }
  });

  it('PUT …/verify answers {message} at once and sets the domain PENDING and verifying', async () => {
    const domain = await createDomain(t.app, team.key);
    const response = await call(t.app, team.key, 'PUT', `/v1/domains/${domain.id}/verify`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: expect.any(String) });
    const read = await getDomainJson(t.app, team.key, domain.id);
    expect(read).toMatchObject({ status: 'PENDING', isVerifying: true });
  });
});

describe('tenancy', () => {
  it("another team's domain answers 404 with the flat body, exactly like a missing one", async () => {
    const domain = await createDomain(t.app, team.key);
    const missingId = 2_000_000_000;
    const cases = [
      ['GET', (id: number) => `/v1/domains/${id}`],
      ['PUT', (id: number) => `/v1/domains/${id}/verify`],
      ['DELETE', (id: number) => `/v1/domains/${id}`],
    ] as const;
    for (const [method, path] of cases) {
      const theirs = await call(t.app, other.key, method, path(domain.id));
      const missing = await call(t.app, other.key, method, path(missingId));
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual(flat);
      expect(theirs.json()).toEqual(missing.json());
    }
    expect((await call(t.app, other.key, 'GET', '/v1/domains')).json().map((d: { id: number }) => d.id)).not.toContain(
      domain.id,
    );
    // Untouched by the other team's delete attempt.
    expect((await getDomainJson(t.app, team.key, domain.id)).id).toBe(domain.id);
  });
});

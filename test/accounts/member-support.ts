// What the member endpoint tests share: a test app made before and closed after the file's tests,
// calls with a key, the team's member rows and member audit entries read back, fresh addresses,
// and a key made by a member of a given role.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type KeyKind, type TestTeam } from '../support/factory.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Role = 'OWNER' | 'ADMIN' | 'MEMBER';

let addresses = 0;

export function useMembersApp() {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const members = (teamId: number) =>
    t.deps.db.selectFrom('members').selectAll().where('team_id', '=', teamId).orderBy('id').execute();
  return {
    get t() {
      return t;
    },
    newTeam: (options?: { plan?: 'free' | 'pro' }) => createTeam(t.app, options),
    call: (key: string, method: Method, url: string, payload?: object): Promise<LightMyRequestResponse> =>
      t.app.inject({ method, url: `/api${url}`, headers: bearer(key), ...(payload === undefined ? {} : { payload }) }),
    members,
    roleOf: async (teamId: number, id: number) => (await members(teamId)).find((m) => m.id === id)?.role,
    emailOf: async (teamId: number, id: number) => (await members(teamId)).find((m) => m.id === id)!.email,
    /** The team's member.* audit entries, oldest first. */
    audited: (teamId: number) =>
      t.deps.db
        .selectFrom('billing_audit_log')
        .select(['action', 'target', 'method', 'path', 'status', 'member_id'])
        .where('team_id', '=', teamId)
        .where('action', 'like', 'member.%')
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
  };
}

export const address = (team: Pick<TestTeam, 'id'>) => `invitee-${team.id}-${++addresses}@example.test`;

/** A key of the team made by a new member of this role. */
export async function keyOf(team: TestTeam, role: Role, kind: KeyKind = 'full') {
  const memberId = await team.addMember(role);
  return { memberId, key: (await team.makeKey(kind, { memberId })).key };
}

export function expectError(response: LightMyRequestResponse, status: number, code: string, message?: RegExp): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().error.code).toBe(code);
  if (message) expect(response.json().error.message).toMatch(message);
}

// What the /v1/session tests share: a test app with two teams, and members with new addresses.
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminRequest, createTeam, type TestTeam } from '../support/factory.ts';

/** The file's test app and teams A and B, made before its tests and closed after them. */
export function sessionTestBed(): { readonly t: TestApp; readonly teamA: TestTeam; readonly teamB: TestTeam } {
  const bed = {} as { t: TestApp; teamA: TestTeam; teamB: TestTeam };
  beforeAll(async () => {
    bed.t = await createTestApp();
    bed.teamA = await createTeam(bed.t.app);
    bed.teamB = await createTeam(bed.t.app);
  });
  afterAll(() => bed.t.close());
  return bed;
}

let counter = 0;
/** A member with a new address in `team`, and the address. */
export async function newMember(t: TestApp, team: TestTeam, role: 'OWNER' | 'ADMIN' | 'MEMBER') {
  const email = `session-${Date.now()}-${++counter}@example.test`;
  const created = await adminRequest(t.app, 'POST', `/teams/${team.id}/members`, { email, role });
  return { id: created.id as number, email };
}

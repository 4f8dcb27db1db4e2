// Tests isolate by tenant: each makes its own team, members and keys through the admin API.
import type { FastifyInstance } from 'fastify';
import { TEST_ADMIN_TOKEN } from './app.ts';

export type KeyKind = 'full' | 'readonly' | 'sending' | 'sandbox' | 'live_ai';

export interface TestTeam {
  id: number;
  ownerId: number;
  /** A full access key made by the owner. */
  key: string;
  addMember(role: 'OWNER' | 'ADMIN' | 'MEMBER'): Promise<number>;
  makeKey(
    kind: KeyKind,
    options?: { memberId?: number | null; domainId?: number },
  ): Promise<{ id: string; key: string }>;
  setRole(memberId: number, role: 'OWNER' | 'ADMIN' | 'MEMBER'): Promise<void>;
}

let counter = 0;

export async function adminRequest(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const response = await app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (response.statusCode >= 300) throw new Error(`admin ${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

export async function createTeam(
  app: FastifyInstance,
  options: { plan?: 'free' | 'pro'; apiRateLimit?: number } = {},
): Promise<TestTeam> {
  const team = await adminRequest(app, 'POST', '/teams', { name: `Team ${++counter}`, plan: options.plan ?? 'free' });
  // A generous limit by default so tests are not throttled; the rate-limit tests set their own.
  await adminRequest(app, 'PATCH', `/teams/${team.id}`, { apiRateLimit: options.apiRateLimit ?? 100_000 });
  const addMember = async (role: 'OWNER' | 'ADMIN' | 'MEMBER') =>
    (await adminRequest(app, 'POST', `/teams/${team.id}/members`, { email: `m${++counter}@example.test`, role }))
      .id as number;
  const makeKey = async (kind: KeyKind, opts: { memberId?: number | null; domainId?: number } = {}) => {
    const body: Record<string, unknown> = { kind };
    if (opts.memberId !== null) body.memberId = opts.memberId ?? ownerId;
    if (opts.domainId !== undefined) body.domainId = opts.domainId;
    const created = await adminRequest(app, 'POST', `/teams/${team.id}/api-keys`, body);
    return { id: created.id as string, key: created.key as string };
  };
  const ownerId = await addMember('OWNER');
  const { key } = await makeKey('full');
  return {
    id: team.id,
    ownerId,
    key,
    addMember,
    makeKey,
    async setRole(memberId, role) {
      await adminRequest(app, 'PATCH', `/teams/${team.id}/members/${memberId}`, { role });
    },
  };
}

/** A team with SMS switched on (unless told otherwise) and its wallet topped up (unless the balance is 0). */
export async function createSmsTeam(
  app: FastifyInstance,
  options: { balance?: number; smsEnabled?: boolean } = {},
): Promise<TestTeam> {
  const team = await createTeam(app);
  await adminRequest(app, 'PATCH', `/teams/${team.id}`, { smsEnabled: options.smsEnabled ?? true });
  const balance = options.balance ?? 10_000;
  if (balance > 0) await adminRequest(app, 'POST', `/teams/${team.id}/wallet/top-ups`, { amountMinor: balance });
  return team;
}

export function bearer(key: string) {
  return { authorization: `Bearer ${key}` };
}

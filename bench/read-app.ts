// What the in-process read benchmarks (analytics.ts, billing-reads.ts) share: the real app with a
// `SELECT 1` route of the same access as the baseline, an owner's full key, and timing every target
// in turn so machine noise hits them alike.
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import type { Deps } from '../src/deps.ts';
import type { AccessLevel } from '../src/platform/auth/policy.ts';
import { addMember, createApiKey, updateTeam } from '../src/accounts/index.ts';

type Response = { statusCode: number; body: string; json(): unknown };
export type Target = () => Promise<Response>;

/**
 * The app for `teamId` with GET /bench/select-1 at `access`, and `get(url)` making a target that
 * requests /api<url> with a full key made by a new OWNER (a limit no round reaches).
 */
export async function readBenchApp(deps: Deps, teamId: number, now: Date, access: AccessLevel) {
  // The limiter's window follows the clock, which stands still here: a limit no round can reach.
  await updateTeam(deps.db, teamId, { apiRateLimit: 1_000_000_000 }, now);
  const owner = await addMember(deps.db, teamId, { email: `bench-${Date.now()}@example.test`, role: 'OWNER' }, now);
  const { key } = await createApiKey(deps.db, deps.secrets, teamId, { kind: 'full', memberId: owner.id });
  const app = await buildApp(deps, {
    extraRoutes: async (api) => {
      api.get(
        '/bench/select-1',
        { config: { access } },
        async () => (await sql<{ one: number }>`SELECT 1 AS one`.execute(deps.db)).rows[0],
      );
    },
  });
  await app.ready();
  const headers = { authorization: `Bearer ${key}` };
  const get =
    (url: string): Target =>
    () =>
      app.inject({ method: 'GET', url: `/api${url}`, headers });
  return { app, get };
}

/** Milliseconds one request takes; anything but 200 stops the benchmark. */
async function timed(run: Target): Promise<number> {
  const started = performance.now();
  const response = await run();
  const elapsed = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return elapsed;
}

/**
 * `warmUp` untimed rounds, then `runs` timed ones, each requesting every target in turn; `afterRound`
 * runs after every round. Answers each target's times in ms.
 */
export async function timeInTurn<Name extends string>(
  targets: Record<Name, Target>,
  options: { warmUp: number; runs: number; afterRound?: () => void },
): Promise<Record<Name, number[]>> {
  const names = Object.keys(targets) as Name[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  for (let i = 0; i < options.warmUp; i++) {
    for (const name of names) await timed(targets[name]);
    options.afterRound?.();
  }
  for (let i = 0; i < options.runs; i++) {
    for (const name of names) times[name].push(await timed(targets[name]));
    options.afterRound?.();
  }
  return times;
}

// The reads measured at each size, through the real app in process (app.inject: key lookup, access
// policy, rate limit, query, response schema; bench/read-app.ts): the email list's first page and a
// page 10,000 rows deep by cursor, the two analytics reads and the billing usage read, with a
// `SELECT 1` route of the same app as the floor.
import type { Deps } from '../../src/deps.ts';
import type { ManualClock } from '../../src/platform/clock.ts';
import { median, percentile } from '../measure.ts';
import { readBenchApp, timeInTurn, type Target } from '../read-app.ts';

const WARM_UP = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
/** The dashboard's list request: cursor paging, no bodies. */
export const LIST = '/v1/emails?paging=cursor&fields=summary&limit=50';
/** The deep page ends at this row of the list (newest first). */
export const DEEP_ROWS = 10_000;
const WALK_LIMIT = 100;

export const READS = {
  baseline: '`SELECT 1` behind a FULL route (floor)',
  listFirst: `GET ${LIST} (first page)`,
  listDeep: `the same, the page ending ${DEEP_ROWS.toLocaleString('en-US')} rows deep (by cursor)`,
  reputation: 'GET /v1/analytics/reputation-metrics',
  series: 'GET /v1/analytics/email-time-series?days=30',
  usage: 'GET /v1/billing/usage',
} as const;
export type ReadName = keyof typeof READS;
export interface ReadFigures {
  median: number;
  p95: number;
}

type Get = (url: string) => Target;

async function json(target: Target): Promise<{ data: unknown[]; nextCursor: string | null }> {
  const response = await target();
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return response.json() as { data: unknown[]; nextCursor: string | null };
}

/**
 * The cursor after row DEEP_ROWS - 50, found as a client finds it: walking nextCursor, 100 rows a
 * page, then one page of 50. The page it names holds rows 9,951 to 10,000.
 */
async function deepCursor(get: Get): Promise<string> {
  const walk = LIST.replace('limit=50', `limit=${WALK_LIMIT}`);
  let cursor: string | null = null;
  let read = 0;
  const target = DEEP_ROWS - 50;
  while (read < target) {
    const step = Math.min(WALK_LIMIT, target - read);
    const url = (step === WALK_LIMIT ? walk : LIST) + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
    const page = await json(get(url));
    read += page.data.length;
    cursor = page.nextCursor;
    if (cursor === null) throw new Error(`the list ended after ${read} rows, before ${target}`);
  }
  return cursor!;
}

export interface ReadBench {
  measure(now: Date): Promise<Record<ReadName, ReadFigures>>;
  close(): Promise<void>;
}

/** One app for both sizes (one app per deps); the clock stands at `now` and moves a minute a round. */
export async function readBench(deps: Deps, clock: ManualClock, teamId: number): Promise<ReadBench> {
  clock.set(new Date());
  const { app, get } = await readBenchApp(deps, teamId, clock.now(), 'full');
  return {
    async measure(now) {
      clock.set(now);
      const deep = await deepCursor(get);
      const deepPage = await json(get(`${LIST}&cursor=${encodeURIComponent(deep)}`));
      if (deepPage.data.length !== 50) throw new Error(`the deep page holds ${deepPage.data.length} rows`);
      const targets: Record<ReadName, Target> = {
        baseline: get('/bench/select-1'),
        listFirst: get(LIST),
        listDeep: get(`${LIST}&cursor=${encodeURIComponent(deep)}`),
        reputation: get('/v1/analytics/reputation-metrics'),
        series: get('/v1/analytics/email-time-series?days=30'),
        usage: get('/v1/billing/usage'),
      };
      // The billing reads' per-minute limit runs on every read: the clock moves a minute a round.
      const times = await timeInTurn(targets, {
        warmUp: WARM_UP,
        runs: RUNS,
        afterRound: () => clock.advance(60_000),
      });
      const figures = {} as Record<ReadName, ReadFigures>;
      for (const name of Object.keys(READS) as ReadName[])
        figures[name] = { median: median(times[name]), p95: percentile(times[name], 0.95) };
      return figures;
    },
    close: () => app.close(),
  };
}

export const READ_RUNS = { warmUp: WARM_UP, runs: RUNS };

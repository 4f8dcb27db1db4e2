// `herald admin webhooks tail <teamId>`: the team's events as they are recorded, until Ctrl-C, polling
// GET /admin/v1/teams/{teamId}/events every second with the cursor of the previous answer (why a
// poll and not a stream: webhook-tail-routes.ts). One line per event on a terminal (time, type, the
// id of what it is about, a summary); one JSON object per line when piped or with --json.
import { setTimeout as sleep } from 'node:timers/promises';
import { type AdminCommand, type AdminJob, teamIdFrom } from './cli-command-kit.ts';

/** What the first read shows of what was recorded before (like tail's last lines). */
const FIRST_READ = 10;
const PAGE = 100;
const POLL_MS = 1_000;

interface TailEventJson {
  cursor: string;
  type: string;
  createdAt: string;
  about: string | null;
  summary: string;
}

interface TailPageJson {
  data: TailEventJson[];
  nextCursor: string;
  hasMore: boolean;
}

/** One event for people: time, type, what it is about, summary, in columns. */
export function tailLine(event: TailEventJson): string {
  return `${[event.createdAt, event.type.padEnd(23), (event.about ?? '-').padEnd(30), event.summary].join('  ').trimEnd()}\n`;
}

function failure(status: number, body: string): Error {
  try {
    const { error } = JSON.parse(body) as { error?: { code?: string; message?: string } };
    if (error) return new Error(`${error.code}: ${error.message}`);
  } catch {
    // not JSON: the status says enough
  }
  return new Error(`HTTP ${status}`);
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch((error: unknown) => {
    if (!signal.aborted) throw error;
  });
}

export function tailJob(teamId: number, json: boolean): AdminJob {
  return async (send, io) => {
    const asJson = json || !io.terminal;
    if (!asJson) io.write(`Team ${teamId}'s events as they are recorded (Ctrl-C stops):\n`);
    let after: string | null = null;
    while (!io.signal.aborted) {
      const query = new URLSearchParams({ limit: String(after === null ? FIRST_READ : PAGE) });
      if (after !== null) query.set('after', after);
      const response = await send({ method: 'GET', path: `/teams/${teamId}/events?${query.toString()}` });
      if (response.status >= 400) throw failure(response.status, response.body);
      const page = JSON.parse(response.body) as TailPageJson;
      for (const event of page.data) io.write(asJson ? `${JSON.stringify(event)}\n` : tailLine(event));
      after = page.nextCursor;
      if (!page.hasMore) await pause(POLL_MS, io.signal);
    }
    return undefined;
  };
}

export const webhookCommands: AdminCommand[] = [
  {
    resource: 'webhooks',
    action: 'tail',
    usage: "webhooks tail TEAM_ID [--json]   (the team's events as they are recorded, until Ctrl-C)",
    options: { team: { type: 'string' }, json: { type: 'boolean' } },
    follows: true,
    toRequest: (v, p) => {
      if (p.length > 1) throw new Error('give one team id');
      return tailJob(teamIdFrom(v, p), v.json === true);
    },
  },
];

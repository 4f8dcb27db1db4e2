// What the HTTP benchmarks share: figures of one load run, the server child's CPU time over IPC,
// and the median of alternating rounds.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

export interface Figures {
  rps: number;
  p99: number;
  non2xx: number;
  /** Server CPU time (user + system) per request: steadier than throughput on a shared machine. */
  cpuMicros: number;
}

/** The server's process.cpuUsage() in microseconds, asked over IPC (the child answers any message). */
export function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (usage) => resolve((usage as NodeJS.CpuUsage).user + (usage as NodeJS.CpuUsage).system));
    child.send('cpu');
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * One load run against a server child: 2 s of warm-up (caches, JIT), then `durationS` measured with
 * autocannon `options`; `requests` makes a fresh request list for each of the two runs.
 */
export async function loadFigures(
  child: ChildProcess,
  options: autocannon.Options,
  durationS: number,
  requests?: () => autocannon.Request[],
): Promise<Figures> {
  const withRequests = () => (requests === undefined ? options : { ...options, requests: requests() });
  await autocannon({ ...withRequests(), duration: 2 });
  const before = await serverCpu(child);
  const result = await autocannon({ ...withRequests(), duration: durationS });
  const cpu = (await serverCpu(child)) - before;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    cpuMicros: cpu / result.requests.total,
  };
}

/** The value at fraction `p` of the sorted values (nearest rank): 0.95 → p95. */
export function percentile(values: number[], p: number): number {
  return [...values].sort((a, b) => a - b)[Math.ceil(p * values.length) - 1]!;
}

/** The median of each figure over alternating rounds (errors summed). */

export function medianFigures(list: Figures[]): Figures {
  return {
    rps: median(list.map((f) => f.rps)),
    p99: median(list.map((f) => f.p99)),
    non2xx: list.reduce((sum, f) => sum + f.non2xx, 0),
    cpuMicros: median(list.map((f) => f.cpuMicros)),
  };
}

/**
 * Starts this benchmark file again as a child pinned to core 1 (the parent pins itself to core 0 with
 * `pinToCoreZero`), so the server and the load generator never steal each other's time. Resolves
 * with the first message the child sends. With BENCH_PROFILE=<dir>, the child writes a CPU profile there
 * when it exits (open it in Chrome's DevTools).
 */
export function startPinnedChild<Info>(file: string, args: string[]): Promise<{ child: ChildProcess; info: Info }> {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn('taskset', ['-c', '1', process.execPath, ...profile, file, ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (info) => resolve({ child, info: info as Info }));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} child exited with ${code}`)));
  });
}

export function pinToCoreZero(): void {
  execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
}

/** In the child: announce `info` to the parent, then answer every message with the CPU used so far. */
export function announceToParent(info: unknown): void {
  process.on('message', () => process.send!(process.cpuUsage()));
  // A normal exit, so that a CPU profile (BENCH_PROFILE) is written.
  process.on('SIGTERM', () => process.exit(0));
  process.send!(info);
}

// What the HTTP benchmarks share: figures of one load run, the server child's CPU time over IPC,
// and the median of alternating rounds.
import type { ChildProcess } from 'node:child_process';

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

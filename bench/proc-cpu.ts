// CPU time of processes other than our own, from /proc (Linux): a benchmark's child, and PostgreSQL's
// (every process named `postgres` on the machine: backends, WAL writer, checkpointer, autovacuum).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const MICROS_PER_TICK = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** User + system CPU time of `pid` in microseconds; 0 when it is gone. */
export function processCpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state is field 0, utime field 11, stime field 12.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
  } catch {
    return 0;
  }
}

/** Every PostgreSQL process's CPU time, by pid: diff two snapshots with `cpuSince`. */
export function postgresCpu(): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    cpu.set(Number(entry), processCpuMicros(Number(entry)));
  }
  return cpu;
}

/**
 * CPU time the PostgreSQL processes used between two snapshots: a process started in between counts
 * whole; one that ended in between is lost (so snapshot while the pool's connections are open).
 */
export function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, micros] of after) total += micros - (before.get(pid) ?? 0);
  return total;
}

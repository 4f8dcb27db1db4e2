// CPU time per message of the SMS delivery benchmark's three processes (the worker or loop, the fake,
// PostgreSQL), and this process's garbage-collection pauses.
import { PerformanceObserver } from 'node:perf_hooks';
import { cpuSince, postgresCpu, processCpuMicros } from '../proc-cpu.ts';

/**
 * CPU time per message of the worker or loop (this process), the fake, and PostgreSQL; and how long
 * this process stood still for garbage collection, part of its own.
 */
export interface CpuPerMessage {
  own: number;
  fake: number;
  postgres: number;
  gcPause: number;
}

export interface RoundResult {
  seconds: number;
  cpu: CpuPerMessage;
}

/** Milliseconds this process has paused for garbage collection so far. */
let gcPausedMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPausedMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

/** Starts a CPU measurement of this process, the fake (`fakePid`) and PostgreSQL; `per(n)` ends it. */
export function measureCpu(fakePid: number) {
  const own = process.cpuUsage();
  const fake = processCpuMicros(fakePid);
  const postgres = postgresCpu();
  const gcAtStart = gcPausedMs;
  return {
    per(messages: number): CpuPerMessage {
      const used = process.cpuUsage(own);
      return {
        own: (used.user + used.system) / messages,
        fake: (processCpuMicros(fakePid) - fake) / messages,
        postgres: cpuSince(postgres, postgresCpu()) / messages,
        gcPause: ((gcPausedMs - gcAtStart) * 1000) / messages,
      };
    },
  };
}

// Keeps bench/RESULTS.md: each benchmark owns one section, replaced on every run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Figures } from './measure.ts';

const FILE = path.join(import.meta.dirname, 'RESULTS.md');
const HEADER =
  '# Benchmark results\n\nWritten by the benchmarks in `bench/` (`npm run bench`). Each section is replaced when its benchmark runs again.\n';

/** The machine, the day, and its load average when the section is written (figures on a shared machine vary with it). */
export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
  return `${os.cpus().length} × ${cpu}, Node.js ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${load} (1, 5, 15 min)`;
}

export function writeSection(name: string, body: string): void {
  const existing = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : HEADER;
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  const pattern = new RegExp(`${start}[\\s\\S]*?${end}`);
  const next = pattern.test(existing) ? existing.replace(pattern, block) : `${existing.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(FILE, next);
}

/** A load run's cells in a results table: throughput, p99, server CPU per request, non-2xx + errors. */
export function loadCells(f: Figures, cpuDigits = 0): string {
  return `${Math.round(f.rps).toLocaleString('en-US')} req/s | p99 ${f.p99} ms | ${f.cpuMicros.toFixed(cpuDigits)} µs | ${f.non2xx}`;
}

export const verdict = (ok: boolean): string => (ok ? 'met' : '**not met**');

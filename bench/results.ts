// Keeps bench/RESULTS.md: each benchmark owns one section, replaced on every run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FILE = path.join(import.meta.dirname, 'RESULTS.md');
const HEADER =
  '# Benchmark results\n\nWritten by the benchmarks in `bench/` (`npm run bench`). Each section is replaced when its benchmark runs again.\n';

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, Node.js ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
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

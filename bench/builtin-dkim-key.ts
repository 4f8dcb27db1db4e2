// Herald's own DKIM key (src/domains/builtin-domain.ts) is derived from HERALD_SECRET once per
// process, on the first message from the built-in domain or the first `herald admin dns`. Its cost
// beside the bare baseline, node's own RSA-2048 generateKeyPairSync (random, OpenSSL), in one run.
// Run: npm exec -- node bench/builtin-dkim-key.ts
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { rsaKeyFromSeed } from '../src/domains/builtin-domain.ts';
import { machineLine, writeSection } from './results.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timed(run: () => unknown): number[] {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return times;
}

const derived = timed(() => rsaKeyFromSeed(randomBytes(32)));
const baseline = timed(() => generateKeyPairSync('rsa', { modulusLength: 2048 }));
const row = (name: string, times: number[]) =>
  `| ${name} | ${median(times).toFixed(0)} | ${Math.min(...times).toFixed(0)} | ${Math.max(...times).toFixed(0)} |`;
const body = `## Built-in domain DKIM key (\`bench/builtin-dkim-key.ts\`)

${machineLine()}; ${RUNS} keys each, one process. Made once per process (first built-in send or \`herald admin dns\`).

| RSA-2048 key | median ms | min ms | max ms |
|---|---|---|---|
${row('derived from a seed (builtin-domain.ts)', derived)}
${row('baseline: generateKeyPairSync (random)', baseline)}
`;
writeSection('builtin-dkim-key', body);
process.stdout.write(body);

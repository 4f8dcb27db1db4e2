// V8 lets a heap whose limit is large (the default where the machine has gigabytes) grow to up to
// 4 × what its last full collection kept before it collects again. A process that allocates fast,
// as a campaign's fan-out does, then holds that much garbage: twice is enough for Herald's
// processes, and not slower for the API (bench/RESULTS.md, "Campaigns"). The flag is read at each
// collection, so setting it once the process runs is in time.
import v8 from 'node:v8';

const HEAP_GROWING_PERCENT = 100;

export function boundHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

// Tests of the embedded database alone: their heralds run on embedded data directories whatever
// DATABASE_URL says (heraldEnv drops it), or they open PGlite themselves. The suite's run on
// PostgreSQL would repeat them unchanged, so it skips them.
import { describe } from 'vitest';

export const describeEmbedded = describe.skipIf(Boolean(process.env.DATABASE_URL));

// Tests that never use the suite's database: their heralds get an embedded data directory, or a
// DATABASE_URL of the test's own (heraldEnv drops the suite's), or they open PGlite themselves. The
// suite's run on PostgreSQL would repeat them unchanged, so it skips them.
import { describe } from 'vitest';

export const describeEmbedded = describe.skipIf(Boolean(process.env.DATABASE_URL));

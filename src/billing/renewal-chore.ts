// The worker's chore for Pro months paid from the wallet: renews months that ended, moves grace
// periods on, and once a day charges Pro units past the included amount to the wallet.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PriceList } from '../platform/price-list.ts';
import { defineChore, type Chore } from '../queue/index.ts';
import { teamsDueForRenewal } from './pro-month-queries.ts';
import { renewProMonth } from './pro-months.ts';
import { chargeDueProUnits } from './pro-units.ts';

const BATCH = 100;

/** Renews every due team, one transaction each; returns how many transitions were written. */
export async function renewDueProMonths(
  db: Kysely<Database>,
  prices: PriceList,
  now: Date,
  batch = BATCH,
): Promise<number> {
  let written = 0;
  let after = 0;
  for (;;) {
    // Pages by team id: teams still due but not moved (a grace period not over yet, a lapsed wallet
    // still short) would come back on every page, and hide the teams behind them.
    const teams = await teamsDueForRenewal(db, now, batch, after);
    for (const teamId of teams) {
      const row = await db.transaction().execute((tx) => renewProMonth(tx, teamId, prices, now));
      if (row) written += 1;
    }
    if (teams.length < batch) return written;
    after = teams[teams.length - 1]!;
  }
}

export function proRenewalChore(prices: PriceList): Chore {
  return defineChore({
    name: 'billing-pro-renewals',
    everyMs: 60_000,
    run: async ({ db, clock, logger }) => {
      const now = clock.now();
      const renewed = await renewDueProMonths(db, prices, now);
      const units = await chargeDueProUnits(db, prices, now);
      if (renewed + units > 0) logger.info({ renewed, units }, 'Pro months and units paid from wallets');
    },
  });
}

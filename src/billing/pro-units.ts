// Pro units past the included amount, charged to the wallet once a day (PRO_UNITS rows) for Pro
// teams paid from the wallet; card teams see them in the usage read only. A unit is one email
// recipient counted against the send quota this calendar month (team_daily_usage).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { formatMillionths, millionthsToMinor, priceTimes } from '../platform/money.ts';
import { includedUnits } from '../platform/plans.ts';
import { proPrice, type PriceList } from '../platform/price-list.ts';
import { chargePlan, findByReference } from '../wallet/index.ts';
import { latestProMonthEvent } from './pro-month-queries.ts';
import { countProUnits, recordProUnitsCharged } from './pro-unit-queries.ts';
import { teamsPayingProFromWallet } from './team-billing-queries.ts';

type Tx = Transaction<Database>;

/** Charges the team's units not charged yet this month; true when a row was written. */
export async function chargeProUnits(tx: Tx, teamId: number, prices: PriceList, now: Date): Promise<boolean> {
  const latest = await latestProMonthEvent(tx, teamId);
  // A lapsed team's units are blocked; a team that stopped paying from the wallet is not charged.
  if (!latest || latest.kind === 'LAPSED' || latest.kind === 'STOPPED') return false;
  const included = includedUnits('pro') ?? 0;
  const day = now.toISOString().slice(0, 10);
  const month = `${day.slice(0, 8)}01`;
  const units = await countProUnits(tx, teamId, month, day);
  if (units.currency === null) return false;
  const overage = BigInt(Math.max(0, units.used - included));
  const due = overage - units.charged;
  const pro = proPrice(prices, units.currency);
  if (due <= 0n || !pro) return false;
  const amount = millionthsToMinor(priceTimes(pro.unitPriceMicro, due), units.currency);
  if (amount <= 0n) return false; // less than a minor unit so far: charged with a later day's units
  const charged = await chargePlan(tx, teamId, {
    type: 'PRO_UNITS',
    amountMinor: amount,
    reference: `pro-units:${day}`,
    description: `${due} Pro units past the ${included} included, at ${formatMillionths(pro.unitPriceMicro, units.currency)} each`,
    at: now,
  });
  if (!charged.paid) return false;
  await recordProUnitsCharged(tx, teamId, month, overage, now);
  return true;
}

/** Once a day per team: the reference of a PRO_UNITS row is its UTC day. */
export async function chargeDueProUnits(db: Kysely<Database>, prices: PriceList, now: Date): Promise<number> {
  const day = now.toISOString().slice(0, 10);
  let charged = 0;
  for (const teamId of await teamsPayingProFromWallet(db)) {
    if (await findByReference(db, teamId, 'PRO_UNITS', `pro-units:${day}`)) continue;
    if (await db.transaction().execute((tx) => chargeProUnits(tx, teamId, prices, now))) charged += 1;
  }
  return charged;
}

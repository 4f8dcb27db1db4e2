// Pro units past the included amount, charged to the wallet once a day (PRO_UNITS rows) for Pro
// teams paid from the wallet; card teams see them in the usage read only. A unit is one email
// recipient counted against the send quota this calendar month (team_daily_usage).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { formatMillionths, millionthsToMinor, priceTimes, type Currency } from '../platform/money.ts';
import { includedUnits } from '../platform/plans.ts';
import { proPrice, type PriceList } from '../platform/price-list.ts';
import { chargePlan } from '../wallet/index.ts';
import { latestProMonthEvent } from './pro-month-queries.ts';

type Tx = Transaction<Database>;

async function walletProTeams(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .selectFrom('teams')
    .select('id')
    .where('plan', '=', 'pro')
    .where('billing_method', '=', 'wallet')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Charges the team's units not charged yet this month; true when a row was written. */
export async function chargeProUnits(tx: Tx, teamId: number, prices: PriceList, now: Date): Promise<boolean> {
  const latest = await latestProMonthEvent(tx, teamId);
  // A lapsed team's units are blocked; a team that stopped paying from the wallet is not charged.
  if (!latest || latest.kind === 'LAPSED' || latest.kind === 'STOPPED') return false;
  const included = includedUnits('pro') ?? 0;
  const day = now.toISOString().slice(0, 10);
  const month = `${day.slice(0, 8)}01`;
  const counted = await sql<{ used: unknown; charged: unknown; currency: Currency | null }>`
    SELECT
      (SELECT COALESCE(SUM(transactional + marketing), 0) FROM team_daily_usage
        WHERE team_id = ${teamId} AND day >= ${month}::date AND day <= ${day}::date) AS used,
      (SELECT units_charged FROM pro_unit_charges WHERE team_id = ${teamId} AND month = ${month}::date) AS charged,
      (SELECT currency FROM wallets WHERE team_id = ${teamId}) AS currency`.execute(tx);
  const row = counted.rows[0]!;
  if (row.currency === null) return false;
  const overage = BigInt(Math.max(0, Number(row.used) - included));
  const due = overage - BigInt(String(row.charged ?? 0));
  const pro = proPrice(prices, row.currency);
  if (due <= 0n || !pro) return false;
  const amount = millionthsToMinor(priceTimes(pro.unitPriceMicro, due), row.currency);
  if (amount <= 0n) return false; // less than a minor unit so far: charged with a later day's units
  const charged = await chargePlan(tx, teamId, {
    type: 'PRO_UNITS',
    amountMinor: amount,
    reference: `pro-units:${day}`,
    description: `${due} Pro units past the ${included} included, at ${formatMillionths(pro.unitPriceMicro, row.currency)} each`,
    at: now,
  });
  if (!charged.paid) return false;
  await sql`INSERT INTO pro_unit_charges (team_id, month, units_charged, updated_at)
    VALUES (${teamId}, ${month}::date, ${overage}, ${now})
    ON CONFLICT (team_id, month) DO UPDATE SET units_charged = EXCLUDED.units_charged, updated_at = EXCLUDED.updated_at`.execute(
    tx,
  );
  return true;
}

/** Once a day per team: the reference of a PRO_UNITS row is its UTC day. */
export async function chargeDueProUnits(db: Kysely<Database>, prices: PriceList, now: Date): Promise<number> {
  const day = now.toISOString().slice(0, 10);
  let charged = 0;
  for (const teamId of await walletProTeams(db)) {
    const done = await db
      .selectFrom('wallet_transactions')
      .select('id')
      .where('team_id', '=', teamId)
      .where('type', '=', 'PRO_UNITS')
      .where('reference', '=', `pro-units:${day}`)
      .executeTakeFirst();
    if (done) continue;
    if (await db.transaction().execute((tx) => chargeProUnits(tx, teamId, prices, now))) charged += 1;
  }
  return charged;
}

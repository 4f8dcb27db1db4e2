// Wallet-only, not a second money module: the balance cap that keeps every wallet amount exact as a
// JSON number, and that conversion. Currencies, rounding and formatting are platform/money.ts's.

/** The largest balance: every amount stays exact as a JSON number (also a CHECK in 0011_wallet.sql). */
export const MAX_BALANCE_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/** A JSON number for a minor amount; amounts are bounded by MAX_BALANCE_MINOR, so this is exact. */
export function minorToJson(amount: bigint): number {
  const value = Number(amount);
  if (!Number.isSafeInteger(value)) throw new Error(`amount ${amount} is beyond JSON's exact integers`);
  return value;
}

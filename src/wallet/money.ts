// Wallet amounts: bigint minor units (cents, kobo) of the wallet's currency. Kept local to the wallet;
// platform/money.ts is meant to take this over.
import type { WalletCurrency } from '../db/schema-wallet.ts';

export type { WalletCurrency };

export const WALLET_CURRENCIES = ['USD', 'NGN', 'KES'] as const satisfies readonly WalletCurrency[];

/** USD, NGN and KES all have two minor digits. */
const MINOR_DIGITS = 2;

/** The largest balance: every amount stays exact as a JSON number (also a CHECK in 0022_wallet.sql). */
export const MAX_BALANCE_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

const formatters = new Map<WalletCurrency, Intl.NumberFormat>();

/** `-150n, 'USD'` -> `-$1.50`; formatted from a decimal string, so no floating point on the way. */
export function formatMinor(amount: bigint, currency: WalletCurrency): string {
  let formatter = formatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: MINOR_DIGITS });
    formatters.set(currency, formatter);
  }
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(MINOR_DIGITS + 1, '0');
  const decimal = `${negative ? '-' : ''}${digits.slice(0, -MINOR_DIGITS)}.${digits.slice(-MINOR_DIGITS)}`;
  // Intl accepts a decimal string exactly (ECMA-402 NumberFormat v3); the cast only satisfies the types.
  return formatter.format(decimal as unknown as number);
}

/** A JSON number for a minor amount; amounts are bounded by MAX_BALANCE_MINOR, so this is exact. */
export function minorToJson(amount: bigint): number {
  const value = Number(amount);
  if (!Number.isSafeInteger(value)) throw new Error(`amount ${amount} is beyond JSON's exact integers`);
  return value;
}

// Whole numbers written with thousands separators for descriptions built while the app starts:
// the first use of Intl (toLocaleString) loads ICU's locale data, 20–40 ms of a start.

/** 100000 → "100,000". */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

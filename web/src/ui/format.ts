// Numbers through Intl only: tabular figures are the CSS's, the digits are these.
const integer = new Intl.NumberFormat('en-US');
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

export const formatCount = (n: number): string => integer.format(n);
export const formatPercent = (fraction: number): string => percent.format(fraction);
export function ratio(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

// The direct delivery benchmark's settings (bench/direct-delivery.ts), shared by its parts: how many
// emails and rounds, the recipient domains with their MX addresses, the message, and the targets.

export const EMAILS = Number(process.env.BENCH_EMAILS ?? 2000);
/** Runs of each order and sender; the table shows the medians. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const DESTINATIONS = Array.from({ length: 10 }, (_, i) => ({
  domain: `d${i}.direct.bench.test`,
  mx: `mx.d${i}.direct.bench.test`,
  address: `127.0.0.${11 + i}`,
}));
export const SEED_BATCH = 100;
/** A run that has not delivered everything by then has failed (a deferred email waits minutes). */
export const DEADLINE_S = 90;
export const TARGET = { messagesPerConnection: 20, quitShare: 1, ratio: 0.7 };

export const HTML = `<!doctype html><html><body><h1>Your weekly summary</h1>${Array.from(
  { length: 19 },
  (_, i) =>
    `<p style="margin:0 0 12px">Paragraph ${i + 1}: here is what happened on your account this week, in brief.</p>`,
).join('')}</body></html>`;
export const SUBJECT = 'Your weekly summary';

export type Order = 'interleaved' | 'grouped';
/** The i-th recipient of a run: its destination by the order, a local part no other run uses. */
export function recipient(run: string, order: Order, i: number): string {
  const perDomain = Math.ceil(EMAILS / DESTINATIONS.length);
  const d = order === 'interleaved' ? i % DESTINATIONS.length : Math.floor(i / perDomain);
  return `${run}-${i}@${DESTINATIONS[d]!.domain}`;
}

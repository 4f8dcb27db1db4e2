// The direct delivery benchmark's report (bench/direct-delivery.ts): each order's median runs of both
// senders, the targets met or not, and the DKIM check, written to bench/RESULTS.md.
import { machineLine, verdict, writeSection } from '../results.ts';
import { DESTINATIONS, EMAILS, HTML, ROUNDS, TARGET, type Order } from './settings.ts';
import type { RunFigures } from './sink.ts';

/** One order's median run of each sender, and the ratio of each round. */
export interface OrderResult {
  order: Order;
  bare: RunFigures;
  herald: RunFigures;
  ratios: number[];
}

/** Prints the section and writes it; `limit` is the per-destination limit both senders had. */
export function writeReport(results: OrderResult[], limit: number): void {
  const perSecond = (seconds: number) => Math.round(EMAILS / seconds).toLocaleString('en-US');
  const peakOf = (f: RunFigures) => Math.max(0, ...Object.values(f.sink.peakByDestination));
  const quitShare = (f: RunFigures) => (f.sink.connections === 0 ? 0 : f.sink.quit / f.sink.connections);
  const percent = (x: number) => `${(x * 100).toFixed(0)}%`;
  const rows = results.flatMap(({ order, bare, herald }) =>
    (
      [
        ['Herald delivery worker', herald],
        ['bare nodemailer pools (baseline)', bare],
      ] as const
    ).map(
      ([who, f]) =>
        `| ${order} | ${who} | ${f.seconds.toFixed(2)} | ${perSecond(f.seconds)} | ${f.sink.connections} | ${f.sink.messagesPerConnection.toFixed(1)} | ${percent(quitShare(f))} | ${peakOf(f)} |`,
    ),
  );
  const targets = results.map(({ order, bare, herald, ratios }) => {
    const ratio = bare.seconds / herald.seconds;
    const rounds = ratios.map(percent).join(', ');
    const mpc = herald.sink.messagesPerConnection;
    const quit = quitShare(herald);
    const peak = peakOf(herald);
    return (
      `- ${order}: throughput **${percent(ratio)}** of the bare loop, medians (at least 70%: ${verdict(ratio >= TARGET.ratio)}; each round: ${rounds}); ` +
      `${mpc.toFixed(1)} messages per connection (at least ${TARGET.messagesPerConnection}: ${verdict(mpc >= TARGET.messagesPerConnection)}); ` +
      `QUIT on ${herald.sink.quit} of ${herald.sink.connections} sessions (every one: ${verdict(quit >= TARGET.quitShare)}); ` +
      `peak ${peak} connections per destination (limit ${limit}: ${verdict(peak <= limit)})` +
      (herald.sink.stillOpen > 0
        ? `; ${herald.sink.stillOpen} connections still open 10 s after the transport closed`
        : '')
    );
  });
  const dkim = results.flatMap((r) => [...r.bare.sink.dkim, ...r.herald.sink.dkim]);
  const body = [
    '## Direct delivery (emails, `direct` transport)',
    '',
    `\`npm exec -- node bench/direct-delivery.ts\`: ${EMAILS.toLocaleString('en-US')} emails (one recipient, ${(HTML.length / 1024).toFixed(1)} KB of HTML, DKIM-signed with the domain's 2048-bit key) to ${DESTINATIONS.length} recipient domains, each domain's MX on its own loopback address (127.0.0.11-${10 + DESTINATIONS.length}) of one SMTP sink (test/support/smtp-sink.ts, STARTTLS with its self-signed certificate; its own process pinned to core 1, with the loopback DNS server), which logs each connection by destination. ` +
      `Herald: HERALD_MAIL_TRANSPORT=direct, HERALD_DNS_SERVERS and HERALD_MX_PORT on loopback, HERALD_DIRECT_MAX_CONNECTIONS=${limit}; the emails are seeded QUEUED through POST /api/v1/emails/batch while no worker runs, then one QueueRunner with the email-delivery queue delivers them; timed from its start until the sink has accepted every message; every email is checked DELIVERED afterwards, after the worker's deps (the transport) were closed. ` +
      `Baseline: a bare loop that builds each message with the same MIME code (and the same text part made from the HTML), signs it with signMessage and the same key and hands it, all at once, to one nodemailer pool per destination (maxConnections ${limit}, same TLS) connecting straight to the destination's address. ` +
      `Each order ${ROUNDS} times, baseline and Herald alternating, the median run of each shown; recipients interleaved (d0, d1, …, d9, d0, …) or grouped (all of d0, then d1, …). Worker and loop in one process pinned to core 0; PostgreSQL on loopback. ${machineLine()}.`,
    '',
    '| recipients | sender | seconds | emails/s | sessions | messages per session | QUIT | peak connections per destination |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'Targets (Herald):',
    '',
    ...targets,
    '',
    `DKIM checked by the sink on the first and last message of each run: ${dkim.filter((r) => r === 'pass').length} of ${dkim.length} signatures pass. ` +
      `nodemailer's pool closes idle connections without QUIT, so the baseline's QUIT column is for information only.`,
  ].join('\n');
  console.log(body);
  writeSection('direct-delivery', body);
}

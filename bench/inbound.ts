// Inbound mail for team inboxes: messages per second from the first connect until each message is
// readable through the API (stored with its attachment, classified, and its email.received event
// recorded), beside a bare smtp-server that parses the same message with the same parser (mailparser,
// the same options) and does nothing else, in the same run. Target: at least 50% of the baseline.
// Run: npm exec -- node bench/inbound.ts   (PostgreSQL: BENCH_DATABASE_URL's server, database
// herald_bench_inbound; BENCH_INBOUND_MESSAGES, default 600 per round)
//
// The message is ~20 KB: multipart/mixed with a text and an html part (alternative) and a 10 KB
// attachment. Herald is what `herald start` runs: startInboundSmtp (RCPT TO checked against the
// team's inboxes, each 250 after the spool's commit, then the listener parses, classifies with the
// built-in checks: SPF/DKIM/DMARC lookups go to a loopback DNS server answering NXDOMAIN, sanitises,
// strips the quote, and stores each batch of messages with their attachments and events in one
// transaction that deletes their spool rows, each original and attachment first written to the blob
// store in a temporary HERALD_DATA_DIR, datasynced). The team has one webhook subscribed to
// email.received, so each message also records a webhook call (not delivered: no worker runs).
// The client speaks raw SMTP with PIPELINING over 4 connections, in a child pinned to core 1; both
// servers run in the parent pinned to core 0, in alternating rounds; medians are kept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { median, pinToCoreZero, startPinnedChild } from './measure.ts';
import { removeTeams } from './remove-teams.ts';
import { machineLine, writeSection } from './results.ts';
import { BENCH_SECRET } from './herald-app.ts';
import {
  clientMain,
  CONNECTIONS,
  freePort,
  MESSAGES_PER_CONNECTION,
  runClient,
  smtpData,
  startBareServer,
  type ClientFigures,
  type SmtpMessage,
} from './smtp-pipelined.ts';

const MESSAGES = Number(process.env.BENCH_INBOUND_MESSAGES ?? 600);
const ROUNDS = 5;
const DATABASE_URL = (() => {
  const url = new URL(BENCH_DATABASE_URL);
  url.pathname = '/herald_bench_inbound';
  return url.toString();
})();

/** A ~20 KB reply with a quote, html, and a 10 KB attachment; CRLF, dot-stuffed, ending in CRLF. */
function messageFor(to: string, n: number): string {
  const paragraph = 'Thanks for the update on the order. Everything arrived in good shape and on time. ';
  const text = `${paragraph.repeat(30)}\n\nOn Tue, Nov 24, 2026 at 10:00 AM Shop <${to}> wrote:\n> ${paragraph.repeat(20)}\n`;
  const html = `<div dir="ltr"><p>${paragraph.repeat(30)}</p><img src="https://tracker.example/p.gif"><blockquote>${paragraph.repeat(20)}</blockquote></div>`;
  const attachment = Buffer.alloc(10 * 1024, n % 251)
    .toString('base64')
    .replace(/.{76}/g, '$&\n');
  const raw = `From: Customer ${n} <customer${n}@sender.example.test>
To: ${to}
Subject: Re: Your order ${n}
Date: Wed, 25 Nov 2026 10:00:00 +0000
Message-ID: <bench-${n}-${Date.now()}@sender.example.test>
In-Reply-To: <order-${n}@sender.example.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="MIX"

--MIX
Content-Type: multipart/alternative; boundary="ALT"

--ALT
Content-Type: text/plain; charset=utf-8

${text}
--ALT
Content-Type: text/html; charset=utf-8

${html}
--ALT--

--MIX
Content-Type: application/octet-stream; name="receipt-${n}.bin"
Content-Disposition: attachment; filename="receipt-${n}.bin"
Content-Transfer-Encoding: base64

${attachment}
--MIX--
`;
  return smtpData(raw);
}

interface RoundFigures extends ClientFigures {
  processedSeconds: number;
  cpuMicros: number;
}

async function main(): Promise<void> {
  pinToCoreZero();
  await ensureDatabase(DATABASE_URL);
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/build-deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { createTeam } = await import('../src/accounts/index.ts');
  const { createInbox } = await import('../src/inboxes/index.ts');
  const { startInboundSmtp } = await import('../src/services.ts');
  const { TestDnsServer } = await import('../test/support/dns-server.ts');

  const dns = await TestDnsServer.start();
  const smtpPort = await freePort();
  const config = {
    ...loadConfig({}),
    databaseUrl: DATABASE_URL,
    secret: BENCH_SECRET,
    adminToken: null,
    logLevel: 'silent' as const,
    host: '127.0.0.1',
    smtpPort,
    mailDomain: 'mail.bench.example.test',
    dnsServers: [dns.address],
    // The blob store's files (originals, attachments): a directory of this run's, not the checkout's ./data.
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-inbound-')),
  };
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  const { child } = await startPinnedChild<{ ready: true }>(import.meta.filename, ['client']);
  // Parsed with the listener's mailparser options, nothing else.
  const bare = await startBareServer(async (raw) => {
    await simpleParser(raw, { keepCidLinks: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  });
  await migrate(deps.database);
  const herald = await startInboundSmtp({ deps, adminTokenGenerated: false, close: async () => {} });
  try {
    const now = new Date();
    await sql`DELETE FROM inbox_messages WHERE team_id IN (SELECT id FROM teams WHERE name = 'bench-inbound')`.execute(
      deps.db,
    );
    await sql`DELETE FROM inboxes WHERE team_id IN (SELECT id FROM teams WHERE name = 'bench-inbound')`.execute(
      deps.db,
    );
    await removeTeams(deps.db, "name = 'bench-inbound'");
    await sql`DELETE FROM inbound_messages`.execute(deps.db);
    const team = await createTeam(deps.db, { name: 'bench-inbound', plan: 'pro' }, now);
    const inbox = await createInbox(
      deps.db,
      team.id,
      { name: 'Bench', address: `support@${config.mailDomain}` },
      config.mailDomain,
      now,
    );
    // One webhook subscribed to email.received: each message records its call in its transaction.
    await sql`INSERT INTO webhooks (id, team_id, url, status, event_types, domain_ids, secret_sealed, secret_hint, created_at, updated_at)
      VALUES (${`wh_bench_${team.id}`}, ${team.id}, 'https://hooks.bench.example.test/in', 'ACTIVE', '{email.received}', '{}', ${deps.secrets.encrypt('whsec_bench')}, 'whsec_…ench', ${now}, ${now})`.execute(
      deps.db,
    );
    const rounds = Array.from({ length: ROUNDS }, (_, r) =>
      Array.from({ length: MESSAGES }, (_, i): SmtpMessage => ({
        mailFrom: 'bounces@sender.example.test',
        rcpt: inbox.address,
        data: messageFor(inbox.address, r * MESSAGES + i),
      })),
    );
    const timed = async (
      port: number,
      messages: SmtpMessage[],
      processed: () => Promise<void>,
    ): Promise<RoundFigures> => {
      const cpu = process.cpuUsage();
      const figures = await runClient(child, port, messages);
      await processed();
      const processedSeconds = (performance.timeOrigin + performance.now() - figures.startedAt) / 1000;
      const used = process.cpuUsage(cpu);
      return { ...figures, processedSeconds, cpuMicros: (used.user + used.system) / messages.length };
    };
    const result: { bare: RoundFigures[]; herald: RoundFigures[] } = { bare: [], herald: [] };
    const verified: { stored: number; calls: number; spooled: number; originals: number }[] = [];
    // Messages of the round whose original reads back whole from its pack in the blob store.
    const originals = async (since: Date) => {
      const { rows } = await sql<{ blob_key: string | null; raw_offset: number | null; raw_size: number }>`
        SELECT blob_key, raw_offset, raw_size FROM inbox_messages WHERE team_id = ${team.id} AND received_at >= ${since}`.execute(
        deps.db,
      );
      let n = 0;
      for (const row of rows) {
        if (row.blob_key === null) continue;
        const bytes = await deps.blobs.get(row.blob_key, { offset: row.raw_offset!, length: row.raw_size });
        if (bytes?.length === row.raw_size) n++;
      }
      return n;
    };
    for (let round = 0; round < ROUNDS; round++) {
      result.bare.push(await timed(bare.port, rounds[round]!, async () => {}));
      const before = new Date();
      result.herald.push(await timed(smtpPort, rounds[round]!, () => herald.drained()));
      const stored = await sql<{
        n: string;
      }>`SELECT count(*) AS n FROM inbox_messages WHERE team_id = ${team.id} AND received_at >= ${before}`.execute(
        deps.db,
      );
      const calls = await sql<{
        n: string;
      }>`SELECT count(*) AS n FROM webhook_calls WHERE team_id = ${team.id} AND type = 'email.received' AND created_at >= ${before}`.execute(
        deps.db,
      );
      const spooled = await sql<{ n: string }>`SELECT count(*) AS n FROM inbound_messages`.execute(deps.db);
      verified.push({
        stored: Number(stored.rows[0]!.n),
        calls: Number(calls.rows[0]!.n),
        spooled: Number(spooled.rows[0]!.n),
        originals: await originals(before),
      });
    }
    const refused = [...result.bare, ...result.herald].reduce((sum, r) => sum + r.refused, 0);
    const bareSeconds = median(result.bare.map((r) => r.processedSeconds));
    const heraldSeconds = median(result.herald.map((r) => r.processedSeconds));
    const perSecond = (seconds: number) => Math.round(MESSAGES / seconds).toLocaleString('en-US');
    const cpu = (list: RoundFigures[]) => median(list.map((r) => r.cpuMicros)).toFixed(0);
    const ratio = bareSeconds / heraldSeconds;
    const complete =
      verified.every(
        (v) => v.stored === MESSAGES && v.calls === MESSAGES && v.spooled === 0 && v.originals === MESSAGES,
      ) && refused === 0;
    const body = [
      '## Inbound mail (team inboxes)',
      '',
      `\`npm exec -- node bench/inbound.ts\`: ${MESSAGES.toLocaleString('en-US')} messages (~${(rounds[0]![0]!.data.length / 1024).toFixed(1)} KB: multipart/mixed, text and html alternatives with a quoted reply and a remote image, a 10 KB attachment) per round to one inbox, ` +
        `sent by a raw-socket client using PIPELINING over ${CONNECTIONS} connections (a new one every ${MESSAGES_PER_CONNECTION} messages, each from its own 127.11.x.y address), timed from the first connect until every message was processed; median of ${ROUNDS} alternating rounds. ` +
        `Herald: startInboundSmtp as \`herald start\` runs it (RCPT TO looked up among live inboxes; each 250 after the spool's commit; then the listener parses with mailparser, classifies with the built-in checks (SPF and DMARC through mailauth against a loopback DNS server answering NXDOMAIN (the message is unsigned, so no DKIM pass), GTUBE and the content rules), sanitises the html, strips the quote, and stores each batch's originals and attachments in the blob store (one pack file per batch in a temporary HERALD_DATA_DIR, datasynced, its directory flushed), then its messages, attachments, email.received webhook calls (one subscribed webhook) and the spool rows' deletion in one transaction per batch); processed = stored and readable through the API. ` +
        `Baseline: a bare smtp-server with the same protocol options that reads each message and parses it with mailparser (same options) before its 250, and does nothing else. ` +
        `PostgreSQL over loopback. Servers in one process pinned to core 0, client in a child pinned to core 1; nothing else ran on the machine. ${machineLine()}.`,
      '',
      '| target | seconds to processed (median) | messages/s | server CPU µs per message (median) |',
      '|---|---:|---:|---:|',
      `| bare smtp-server, read and parse (baseline) | ${bareSeconds.toFixed(2)} | ${perSecond(bareSeconds)} | ${cpu(result.bare)} |`,
      `| Herald: spool, classify, store, event | ${heraldSeconds.toFixed(2)} | ${perSecond(heraldSeconds)} | ${cpu(result.herald)} |`,
      '',
      `Throughput ratio: **${(ratio * 100).toFixed(0)}%** of the bare server (target: at least 50%, ${ratio >= 0.5 ? 'met' : '**not met**'}). ` +
        `Checked after each Herald round: ${verified.map((v) => `${v.stored}/${MESSAGES} stored, ${v.originals} originals in the blob store, ${v.calls} email.received calls, ${v.spooled} left in the spool`).join('; ')}; ${refused} messages answered other than 250.`,
    ].join('\n');
    console.log(body);
    writeSection('inbound', body);
    if (!complete) process.exitCode = 1;
    await sql`DELETE FROM inbox_messages WHERE team_id = ${team.id}`.execute(deps.db);
    await sql`DELETE FROM inboxes WHERE team_id = ${team.id}`.execute(deps.db);
    await removeTeams(deps.db, 'id = $1', [team.id]);
  } finally {
    child.kill('SIGKILL');
    await herald.stop();
    await bare.stop();
    await deps.close();
    await dns.close();
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'client') clientMain('127.11');
else await main();

// Direct delivery as a real MTA (issue 43): Herald's delivery worker on HERALD_MAIL_TRANSPORT=direct
// takes EMAILS DKIM-signed emails (2.0 KB of HTML, one recipient each) to 10 recipient domains whose MX
// hosts are 127.0.0.11 … 127.0.0.20, all served by one SMTP sink (test/support/smtp-sink.ts) on one
// port, with a loopback DNS server (test/support/dns-server.ts) answering the MX and A records. The
// sink logs every connection by the address it came in on, so it sees each destination on its own:
// messages per connection, QUIT at the end of each session, and the peak of connections open at once.
// Two runs: recipients interleaved (d0, d1, …, d9, d0, …) and grouped (all of d0, then d1, …).
//
// Baseline, in the same run and for each order: a bare loop that builds and signs the same messages
// with the same MIME code and key (buildMessage + signMessage), all in flight at once, over one
// nodemailer pool per destination (maxConnections = the same limit), straight to the destination's
// address (no DNS). Both are timed from their start until the sink has accepted every message.
//
// Herald is configured as an operator would, through loadConfig and buildDeps:
// HERALD_MAIL_TRANSPORT=direct, HERALD_DNS_SERVERS, HERALD_MX_PORT, and HERALD_DIRECT_MAX_CONNECTIONS
// (the per-destination limit: Herald's default, 5, unless set in the environment of the run). Each run
// gets fresh deps (a fresh transport and DNS cache) on the shared database, closed after the run so
// that its sessions end as they would at shutdown.
// The emails are seeded QUEUED through POST /api/v1/emails/batch while no worker runs; the sending
// domain is created through the API and marked verified directly in the database.
//
// The sink and the DNS server run in their own process pinned to core 1 (this file started again
// with `sink`); Herald's worker and the bare loop in this one, pinned to core 0.
// Run: npm exec -- node bench/direct-delivery.ts   (BENCH_DATABASE_URL; BENCH_EMAILS, default 2000)
import type { ChildProcess } from 'node:child_process';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { BENCH_SECRET } from './herald-app.ts';
import { pinToCoreZero, startPinnedChild } from './measure.ts';
import { machineLine, verdict, writeSection } from './results.ts';
import { sessionBounces } from '../src/feedback/index.ts';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 2000);
/** Runs of each order and sender; the table shows the medians. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DESTINATIONS = Array.from({ length: 10 }, (_, i) => ({
  domain: `d${i}.direct.bench.test`,
  mx: `mx.d${i}.direct.bench.test`,
  address: `127.0.0.${11 + i}`,
}));
const SEED_BATCH = 100;
/** A run that has not delivered everything by then has failed (a deferred email waits minutes). */
const DEADLINE_S = 90;
const TARGET = { messagesPerConnection: 20, quitShare: 1, ratio: 0.7 };

const HTML = `<!doctype html><html><body><h1>Your weekly summary</h1>${Array.from(
  { length: 19 },
  (_, i) =>
    `<p style="margin:0 0 12px">Paragraph ${i + 1}: here is what happened on your account this week, in brief.</p>`,
).join('')}</body></html>`;
const SUBJECT = 'Your weekly summary';

type Order = 'interleaved' | 'grouped';
/** The i-th recipient of a run: its destination by the order, a local part no other run uses. */
function recipient(run: string, order: Order, i: number): string {
  const perDomain = Math.ceil(EMAILS / DESTINATIONS.length);
  const d = order === 'interleaved' ? i % DESTINATIONS.length : Math.floor(i / perDomain);
  return `${run}-${i}@${DESTINATIONS[d]!.domain}`;
}

// ---- the sink's process: DNS server and SMTP sink ----

interface DkimKeyInfo {
  domain: string;
  selector: string;
  txt: string;
}
interface SinkReport {
  connections: number;
  /** Connections still open when the report was asked for (after a grace period). */
  stillOpen: number;
  quit: number;
  messagesPerConnection: number;
  peakByDestination: Record<string, number>;
  dkim: string[];
}
type ToSink = { expect: number } | { report: DkimKeyInfo };
type FromSink = { port: number; dns: string } | { received: number } | { report: SinkReport };

async function sinkMain(): Promise<void> {
  const { SmtpSink, verifyDkim } = await import('../test/support/smtp-sink.ts');
  const { TestDnsServer } = await import('../test/support/dns-server.ts');
  const dns = await TestDnsServer.start();
  for (const d of DESTINATIONS) {
    dns.setMx(d.domain, { exchange: d.mx, priority: 10 });
    dns.set(d.mx, 'A', [{ type: 'A', address: d.address }]);
  }
  const sink = await SmtpSink.start({ hosts: DESTINATIONS.map((d) => d.address) });
  const send = (message: FromSink) => process.send!(message);
  process.on('message', (message: ToSink) => {
    if ('expect' in message) {
      sink.reset();
      const timer = setInterval(() => {
        if (sink.messages.length < message.expect) return;
        clearInterval(timer);
        send({ received: sink.messages.length });
      }, 2);
      return;
    }
    // After the clock stopped and the sender closed: its sessions end, then the figures.
    void sink
      .waitFor((s) => s.openConnections === 0, 'every connection closed', 10_000)
      .catch(() => {})
      .then(async () => {
        const key = { ...message.report, privateKeyPem: '' };
        const dkim = await Promise.all([
          verifyDkim(sink.messages[0]!.raw, key),
          verifyDkim(sink.messages.at(-1)!.raw, key),
        ]);
        const sessions = sink.connections.filter((c) => !c.refused);
        send({
          report: {
            connections: sessions.length,
            stillOpen: sink.openConnections,
            quit: sessions.filter((c) => c.quit).length,
            messagesPerConnection: sink.messagesPerConnection(),
            peakByDestination: Object.fromEntries(sink.peakConnectionsByAddress()),
            dkim: dkim.flat(),
          },
        });
      });
  });
  send({ port: sink.port, dns: dns.address });
}

/** Resolves with the next message from the sink that has `key`. */
function fromSink<K extends 'received' | 'report'>(
  child: ChildProcess,
  key: K,
): Promise<Extract<FromSink, Record<K, unknown>>> {
  return new Promise((resolve) => {
    const listener = (message: FromSink) => {
      if (!(key in message)) return;
      child.off('message', listener);
      resolve(message as Extract<FromSink, Record<K, unknown>>);
    };
    child.on('message', listener);
  });
}

// ---- this process: Herald's worker and the bare loop, on core 0 ----

interface RunFigures {
  seconds: number;
  sink: SinkReport;
}

async function main(): Promise<void> {
  pinToCoreZero();
  await ensureDatabase(BENCH_DATABASE_URL);
  const { sql } = await import('kysely');
  const { buildApp } = await import('../src/app.ts');
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/build-deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { createTeam, addMember, updateTeam, createApiKey } = await import('../src/accounts/index.ts');
  const { emailDeliveryQueue } = await import('../src/emails/delivery.ts');
  const { QueueRunner } = await import('../src/queue/index.ts');
  const { getSendingDomain } = await import('../src/domains/index.ts');
  const { buildMessage, formatMessageId } = await import('../src/emails/mime.ts');
  const { textOfHtml } = await import('../src/emails/delivery-message.ts');
  const { signMessage } = await import('../src/emails/dkim-sign.ts');

  const { child, info } = await startPinnedChild<{ port: number; dns: string }>(import.meta.filename, ['sink']);
  const config = {
    ...loadConfig({
      HERALD_MAIL_TRANSPORT: 'direct',
      HERALD_DNS_SERVERS: info.dns,
      HERALD_MX_PORT: String(info.port),
      // The per-destination limit: Herald's default unless the environment of the run sets it.
      ...(process.env.HERALD_DIRECT_MAX_CONNECTIONS === undefined
        ? {}
        : { HERALD_DIRECT_MAX_CONNECTIONS: process.env.HERALD_DIRECT_MAX_CONNECTIONS }),
    }),
    databaseUrl: BENCH_DATABASE_URL,
    secret: BENCH_SECRET,
    adminToken: null,
  };
  /** HERALD_DIRECT_MAX_CONNECTIONS as Herald read it; the bare pools get the same limit. */
  const LIMIT = config.direct.maxConnections;
  const logger = pino({ level: 'silent' });
  const deps = await buildDeps(config, { logger });
  try {
    await migrate(deps.database);
    const now = new Date();
    await sql`DELETE FROM teams WHERE name = 'bench-direct-delivery'`.execute(deps.db);
    const stray = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM emails WHERE status IN ('QUEUED', 'SCHEDULED')`.execute(deps.db);
    if (Number(stray.rows[0]!.n) > 0)
      throw new Error(
        `${stray.rows[0]!.n} other emails are waiting for delivery in ${BENCH_DATABASE_URL}; the worker would send them too`,
      );

    const team = await createTeam(deps.db, { name: 'bench-direct-delivery', plan: 'pro' }, now);
    await updateTeam(deps.db, team.id, { apiRateLimit: 1_000_000_000 }, now);
    const owner = await addMember(deps.db, team.id, { email: `bench-${team.id}@example.test`, role: 'OWNER' }, now);
    const { key } = await createApiKey(deps.db, deps.secrets, team.id, { kind: 'full', memberId: owner.id });
    const app = await buildApp(deps);
    const authorization = `Bearer ${key}`;
    const domainName = `direct-${team.id}.bench.example.test`;
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/domains',
      headers: { authorization },
      payload: { name: domainName, region: 'us-east-1' },
    });
    if (created.statusCode !== 200)
      throw new Error(`creating the domain answered ${created.statusCode}: ${created.body}`);
    const domainId = (created.json() as { id: number }).id;
    await deps.db
      .updateTable('domains')
      .set({ status: 'SUCCESS', verified_at: now, is_verifying: false })
      .where('id', '=', domainId)
      .execute();
    const domain = (await getSendingDomain(deps.db, deps.secrets, team.id, domainName))!;
    const publicKey = await deps.db
      .selectFrom('domains')
      .select('dkim_public_key')
      .where('id', '=', domainId)
      .executeTakeFirstOrThrow();
    const dkimKey: DkimKeyInfo = {
      domain: domainName,
      selector: domain.dkimSelector,
      txt: `v=DKIM1; k=rsa; p=${publicKey.dkim_public_key}`,
    };
    const from = `Herald Bench <bench@${domainName}>`;

    /** Times `work` until the sink has accepted EMAILS messages, then `finish`, then the sink's figures. */
    const timed = async (run: string, work: () => Promise<void>, finish: () => Promise<void>): Promise<RunFigures> => {
      const received = fromSink(child, 'received');
      child.send({ expect: EMAILS } satisfies ToSink);
      const started = performance.now();
      const working = work();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${run}: the sink did not get ${EMAILS} messages within ${DEADLINE_S} s`)),
          DEADLINE_S * 1000,
        );
      });
      // A failing sender fails the run instead of leaving it waiting for the sink.
      await Promise.race([received, working.then(() => received), deadline]).finally(() => clearTimeout(timer));
      const seconds = (performance.now() - started) / 1000;
      await working;
      await finish();
      const report = fromSink(child, 'report');
      child.send({ report: dkimKey } satisfies ToSink);
      return { seconds, sink: (await report).report };
    };

    /** Herald: EMAILS queued through the API, then one worker on fresh deps delivers them all. */
    const heraldRun = async (order: Order, round: number): Promise<RunFigures> => {
      const run = `herald-${order}-${round}`;
      await sql`DELETE FROM team_daily_usage WHERE team_id = ${team.id}`.execute(deps.db);
      for (let start = 0; start < EMAILS; start += SEED_BATCH) {
        const payload = Array.from({ length: Math.min(SEED_BATCH, EMAILS - start) }, (_, i) => ({
          from,
          to: recipient(run, order, start + i),
          subject: SUBJECT,
          html: HTML,
        }));
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/emails/batch',
          headers: { authorization },
          payload,
        });
        if (response.statusCode !== 200) throw new Error(`seeding answered ${response.statusCode}: ${response.body}`);
      }
      // What `herald worker` builds from the configuration: the direct transport and its DNS resolver.
      const workerDeps = await buildDeps(config, { logger, database: deps.database });
      const runner = new QueueRunner({
        database: deps.database,
        queues: [
          emailDeliveryQueue({
            secrets: workerDeps.secrets,
            publicUrl: config.publicUrl,
            transport: workerDeps.mailTransport,
            mailDomain: config.mailDomain,
            bounces: sessionBounces,
          }),
        ],
        pollMs: 50,
      });
      if (workerDeps.mailTransport.kind !== 'direct') throw new Error('the worker is not on the direct transport');
      const stop = async () => {
        await runner.stop();
        await workerDeps.close();
      };
      let figures: RunFigures;
      try {
        figures = await timed(run, () => runner.start(), stop);
      } catch (error) {
        await stop();
        // What became of the emails says why the sink did not get them.
        const states = await sql<{ status: string; error: string | null; n: string }>`
          SELECT status, left(last_error, 200) AS error, count(*) AS n FROM emails
          WHERE team_id = ${team.id} AND "to" #>> '{}' LIKE ${`${run}-%`} GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 5`.execute(
          deps.db,
        );
        const summary = states.rows.map((r) => `${r.n} ${r.status}${r.error ? ` (${r.error})` : ''}`).join('; ');
        throw new Error(`${(error as Error).message}; the emails: ${summary}`, { cause: error });
      }
      const delivered = await sql<{ n: string }>`
        SELECT count(*) AS n FROM emails WHERE team_id = ${team.id} AND status = 'DELIVERED' AND "to" #>> '{}' LIKE ${`${run}-%`}`.execute(
        deps.db,
      );
      if (Number(delivered.rows[0]!.n) !== EMAILS)
        throw new Error(`${run}: ${delivered.rows[0]!.n} of ${EMAILS} emails are DELIVERED`);
      return figures;
    };

    /** The bare loop: build, sign and hand every message at once to its destination's nodemailer pool. */
    const bareRun = async (order: Order, round: number): Promise<RunFigures> => {
      const run = `bare-${order}-${round}`;
      const pools = new Map(
        DESTINATIONS.map((d) => [
          d.domain,
          nodemailer.createTransport({
            pool: true,
            maxConnections: LIMIT,
            host: d.address,
            port: info.port,
            secure: false,
            name: config.mailDomain,
            tls: { rejectUnauthorized: false },
          }),
        ]),
      );
      const sendOne = async (i: number) => {
        const to = recipient(run, order, i);
        const date = new Date();
        const raw = await buildMessage({
          from,
          to: [to],
          subject: SUBJECT,
          html: HTML,
          // The same message as Herald's: an HTML-only email gets a text part made from the HTML.
          text: await textOfHtml(HTML),
          messageId: formatMessageId(`${run}-${i}-${team.id}`, config.mailDomain),
          date,
        });
        const signed = await signMessage(
          raw,
          { domain: domainName, selector: domain.dkimSelector, privateKeyPem: domain.dkimPrivateKey },
          date,
        );
        const pool = pools.get(to.slice(to.indexOf('@') + 1))!;
        await pool.sendMail({ envelope: { from: `bounce@${domain.returnPath}`, to: [to] }, raw: signed });
      };
      return timed(
        run,
        async () => {
          await Promise.all(Array.from({ length: EMAILS }, (_, i) => sendOne(i)));
        },
        async () => {
          for (const pool of pools.values()) pool.close();
        },
      );
    };

    // Each order ROUNDS times, baseline and Herald alternating; the table shows each sender's median run.
    const median = (runs: RunFigures[]) =>
      [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;
    const results: { order: Order; bare: RunFigures; herald: RunFigures; ratios: number[] }[] = [];
    for (const order of ['interleaved', 'grouped'] as const) {
      const bares: RunFigures[] = [];
      const heralds: RunFigures[] = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        bares.push(await bareRun(order, round));
        heralds.push(await heraldRun(order, round));
      }
      const ratios = bares.map((b, i) => b.seconds / heralds[i]!.seconds);
      results.push({ order, bare: median(bares), herald: median(heralds), ratios });
    }
    await app.close();

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
        `peak ${peak} connections per destination (limit ${LIMIT}: ${verdict(peak <= LIMIT)})` +
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
        `Herald: HERALD_MAIL_TRANSPORT=direct, HERALD_DNS_SERVERS and HERALD_MX_PORT on loopback, HERALD_DIRECT_MAX_CONNECTIONS=${LIMIT}; the emails are seeded QUEUED through POST /api/v1/emails/batch while no worker runs, then one QueueRunner with the email-delivery queue delivers them; timed from its start until the sink has accepted every message; every email is checked DELIVERED afterwards, after the worker's deps (the transport) were closed. ` +
        `Baseline: a bare loop that builds each message with the same MIME code (and the same text part made from the HTML), signs it with signMessage and the same key and hands it, all at once, to one nodemailer pool per destination (maxConnections ${LIMIT}, same TLS) connecting straight to the destination's address. ` +
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
  } finally {
    child.kill('SIGKILL');
    // A failed run leaves no queued email behind for the next benchmark's worker.
    await sql`DELETE FROM teams WHERE name = 'bench-direct-delivery'`.execute(deps.db);
    await deps.close();
  }
}

if (process.argv[2] === 'sink') await sinkMain();
else await main();

// Email delivery throughput: emails/s from QUEUED to accepted by an SMTP sink, DKIM-signed, by one
// worker (a QueueRunner with the email-delivery queue, transport = the smtp relay pointed at the sink)
// on PostgreSQL, beside a bare loop measured in the same run: nodemailer's pooled SMTP transport to
// the same sink sending the same number of messages, built by the same MIME code and signed with the
// same DKIM key (signMessage), as many in flight as the queue has (one batch of 20).
// Run: npm exec -- node bench/email-delivery.ts   (BENCH_DATABASE_URL; BENCH_EMAILS, default 2000)
//
// The emails are seeded through POST /api/v1/emails/batch while no worker runs; the sending domain is
// created through the API and then marked verified directly in the database (status SUCCESS,
// verified_at now): no DNS server or domain-check worker runs in the benchmark.
//
// The sink's process and its IPC: bench/email-delivery/sink.ts.
import nodemailer from 'nodemailer';
import pino from 'pino';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { expectMessages, sinkMain, startSink } from './email-delivery/sink.ts';
import { machineLine, writeSection } from './results.ts';
import { median, pinToCoreZero } from './measure.ts';
import { removeTeams } from './remove-teams.ts';
import { BENCH_SECRET } from './herald-app.ts';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 2000);
const ROUNDS = 3;
const BASE_URL = BENCH_DATABASE_URL;
/** The delivery queue's batch size × its concurrency (20 × 2): emails in flight in the worker. */
const IN_FLIGHT = 40;
/** The relay transport's default pool. */
const MAX_CONNECTIONS = 5;
const SEED_BATCH = 100;

const HTML = `<!doctype html><html><body><h1>Your weekly summary</h1>${Array.from(
  { length: 19 },
  (_, i) =>
    `<p style="margin:0 0 12px">Paragraph ${i + 1}: here is what happened on your account this week, in brief.</p>`,
).join('')}</body></html>`;
const SUBJECT = 'Your weekly summary';
const recipient = (round: number, i: number) => `reader-${round}-${i}@example.test`;

// ---- the parent: Herald's worker and the bare loop, on core 0 ----

interface RoundFigures {
  seconds: number;
  dkim: string[];
}

async function main(): Promise<void> {
  pinToCoreZero();
  await ensureDatabase(BASE_URL);
  const { sql } = await import('kysely');
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/build-deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { sinkDeliveryRunner } = await import('./email-delivery/runner.ts');
  const { seedDeliveryTeam } = await import('./delivery-team.ts');
  const { buildMessage, formatMessageId } = await import('../src/emails/mime.ts');
  const { textOfHtml } = await import('../src/emails/delivery-message.ts');
  const { signMessage } = await import('../src/emails/dkim-sign.ts');

  const config = { ...loadConfig({}), databaseUrl: BASE_URL, secret: BENCH_SECRET, adminToken: null };
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  const sink = await startSink(import.meta.filename);
  try {
    await migrate(deps.database);
    // Earlier runs of the email benchmarks may have left queued emails behind: their teams go.
    const { team, app, authorization, domainName, domain, dkimKey, from } = await seedDeliveryTeam(deps, {
      name: 'bench-email-delivery',
      domainLabel: 'delivery',
      clearTeams: ['bench-email-send'],
    });
    const sinkUrl = new URL(sink.url);

    /** Herald: seed EMAILS queued emails through the API, then time one worker delivering them all. */
    const heraldRound = async (round: number): Promise<RoundFigures> => {
      await sql`DELETE FROM team_daily_usage WHERE team_id = ${team.id}`.execute(deps.db);
      for (let start = 0; start < EMAILS; start += SEED_BATCH) {
        const payload = Array.from({ length: Math.min(SEED_BATCH, EMAILS - start) }, (_, i) => ({
          from,
          to: recipient(round, start + i),
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
      const { runner, transport } = sinkDeliveryRunner(config, deps, sink.url);
      const { received, dkim } = expectMessages(sink.child, EMAILS, dkimKey);
      const started = performance.now();
      await runner.start();
      const seconds = ((await received) - started) / 1000;
      await runner.stop();
      await transport.close();
      const sent = await sql<{ n: string }>`
        SELECT count(*) AS n FROM emails WHERE team_id = ${team.id} AND status = 'SENT' AND "to" #>> '{}' LIKE ${`reader-${round}-%`}`.execute(
        deps.db,
      );
      if (Number(sent.rows[0]!.n) !== EMAILS)
        throw new Error(`round ${round}: ${sent.rows[0]!.n} of ${EMAILS} emails are SENT`);
      return { seconds, dkim: await dkim };
    };

    /** The bare loop: build, sign and hand to nodemailer's pool, IN_FLIGHT at a time. */
    const bareRound = async (round: number): Promise<RoundFigures> => {
      const transport = nodemailer.createTransport({
        pool: true,
        maxConnections: MAX_CONNECTIONS,
        host: sinkUrl.hostname,
        port: Number(sinkUrl.port),
        secure: false,
        name: config.mailDomain,
        tls: { rejectUnauthorized: false },
      });
      const { received, dkim } = expectMessages(sink.child, EMAILS, dkimKey);
      const started = performance.now();
      let next = 0;
      const loop = async () => {
        while (next < EMAILS) {
          const i = next++;
          const to = recipient(round, i);
          const date = new Date();
          const raw = await buildMessage({
            from,
            to: [to],
            subject: SUBJECT,
            html: HTML,
            // The same message as Herald's: an HTML-only email gets a text part made from the HTML.
            text: await textOfHtml(HTML),
            messageId: formatMessageId(`bare-${round}-${i}-${team.id}`, config.mailDomain),
            date,
          });
          const signed = await signMessage(
            raw,
            { domain: domainName, selector: domain.dkimSelector, privateKeyPem: domain.dkimPrivateKey },
            date,
          );
          await transport.sendMail({ envelope: { from: `bounce@${domain.returnPath}`, to: [to] }, raw: signed });
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, loop));
      const seconds = ((await received) - started) / 1000;
      transport.close();
      return { seconds, dkim: await dkim };
    };

    const rounds: { bare: RoundFigures[]; herald: RoundFigures[] } = { bare: [], herald: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.bare.push(await bareRound(round));
      rounds.herald.push(await heraldRound(round));
    }
    await app.close();

    const bareSeconds = median(rounds.bare.map((r) => r.seconds));
    const heraldSeconds = median(rounds.herald.map((r) => r.seconds));
    const perSecond = (seconds: number) => Math.round(EMAILS / seconds).toLocaleString('en-US');
    const dkimResults = [...rounds.bare, ...rounds.herald].flatMap((r) => r.dkim);
    const dkimPass = dkimResults.filter((r) => r === 'pass').length;
    const ratio = bareSeconds / heraldSeconds;
    const body = [
      '## Email delivery (emails)',
      '',
      `\`npm exec -- node bench/email-delivery.ts\`: ${EMAILS.toLocaleString('en-US')} emails (one recipient, ${(HTML.length / 1024).toFixed(1)} KB of HTML) per round, timed from the start until the SMTP sink (test/support/smtp-sink.ts, its own process pinned to core 1) has accepted them all; median of ${ROUNDS} alternating rounds. ` +
        `Herald: the emails are seeded QUEUED through POST /api/v1/emails/batch while no worker runs, then one QueueRunner with the email-delivery queue (batch 20, concurrency 2) delivers them through the smtp relay transport (nodemailer pool of ${MAX_CONNECTIONS}, STARTTLS with the sink's self-signed certificate accepted), DKIM-signing each with the domain's 2048-bit key; every email is checked SENT afterwards. ` +
        `The sending domain was created through the API and marked verified directly in the database (status SUCCESS, verified_at). ` +
        `Baseline: a bare loop, ${IN_FLIGHT} in flight, building each message with the same MIME code (and the same text part made from the HTML), signing it with signMessage and the same key, and sending it over nodemailer's pooled SMTP transport (${MAX_CONNECTIONS} connections, same TLS) to the same sink. ` +
        `Worker and loop in one process pinned to core 0; PostgreSQL on loopback. ${machineLine()}.`,
      '',
      '| target | seconds (median) | emails/s |',
      '|---|---:|---:|',
      `| bare nodemailer pool + signMessage (baseline) | ${bareSeconds.toFixed(2)} | ${perSecond(bareSeconds)} |`,
      `| Herald delivery worker (QUEUED → accepted by the sink) | ${heraldSeconds.toFixed(2)} | ${perSecond(heraldSeconds)} |`,
      '',
      `Throughput ratio: **${(ratio * 100).toFixed(0)}%** of the bare loop (target: at least 70%, ${ratio >= 0.7 ? 'met' : '**not met**'}). ` +
        `DKIM checked by the sink on the first and last message of each round: ${dkimPass} of ${dkimResults.length} signatures pass.`,
    ].join('\n');
    console.log(body);
    writeSection('email-delivery', body);
    // The delivered emails are of no further use.
    await removeTeams(deps.db, 'id = $1', [team.id]);
  } finally {
    sink.child.kill('SIGKILL');
    await deps.close();
  }
}

if (process.argv[2] === 'sink') await sinkMain();
else await main();

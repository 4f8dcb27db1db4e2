// Losing the database's connections ends no process. An api, a worker and an smtp process share a
// fresh PostgreSQL database; while emails are sent through the API (and delivered to the SMTP sink
// by the worker), every connection of that database is terminated, three times, as a restart, a
// failover or a proxy would. No process exits (before the fix each died of an unhandled 'error'
// event, 57P01, from a pooled client checked out between two statements); a request caught by the
// outage answers 503 in the error shape; all three are ready again; every email the API took is
// delivered exactly once.
import { randomBytes } from 'node:crypto';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MailTestServices, sinkHeader } from '../support/mail-herald.ts';
import {
  cleanUpHeralds,
  freePort,
  http,
  startHerald,
  until,
  waitForExit,
  waitForHealthy,
  withHeraldLogs,
  type HeraldProcess,
} from '../support/spawn.ts';

const MAIL_DOMAIN = 'mail.herald.test';
const TERMINATIONS = 3;
/** Emails sent (sequentially, by SENDERS loops) between two terminations. */
const SENDS_BETWEEN = 15;
const SENDERS = 4;

const services = new MailTestServices();

afterEach(async () => {
  await cleanUpHeralds();
  await services.close();
});

/** Ends every session on `database` but the caller's; returns how many were ended. */
async function terminateEveryConnection(databaseUrl: string): Promise<number> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [name],
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

/** One message to the smtp process; its final reply, accepted or not. */
async function sendInbound(port: number, to: string, subject: string): Promise<string> {
  const connection = new SMTPConnection({ host: '127.0.0.1', port, ignoreTLS: true, socketTimeout: 60_000 });
  await new Promise<void>((resolve, reject) => {
    connection.once('error', reject);
    connection.connect(() => resolve());
  });
  try {
    const raw = Buffer.from(
      `From: <postmaster@example.test>\r\nTo: <${to}>\r\nSubject: ${subject}\r\n\r\nNot a report.\r\n`,
    );
    return await new Promise<string>((resolve) =>
      connection.send({ from: 'postmaster@example.test', to }, raw, (error, info) =>
        resolve(error ? String((error as Error & { response?: string }).response ?? error.message) : info.response),
      ),
    );
  } finally {
    connection.quit();
  }
}

describe.skipIf(!process.env.DATABASE_URL)(
  'every connection of the database terminated (PostgreSQL only: PGlite has no connection to lose)',
  { timeout: 420_000 },
  () => {
    it('api, worker and smtp processes survive, are ready again, and every email goes exactly once', () =>
      withHeraldLogs(async (started) => {
        // `herald start` migrates and provisions a team with a verified domain; then it makes way
        // for one process of each kind on the same database.
        const {
          herald: setup,
          sink,
          databaseUrl,
        } = await services.startHerald(started, {
          databaseLabel: 'connection_loss',
          teamName: 'connection loss',
          mailDomain: MAIL_DOMAIN,
        });
        setup.process.kill('SIGTERM');
        await waitForExit(setup.process, 60_000);

        const ports = { api: await freePort(), worker: await freePort(), smtp: await freePort() };
        const smtpPort = await freePort();
        const processes: Record<keyof typeof ports, HeraldProcess> = {
          api: startHerald(['api'], { ...setup.env, PORT: String(ports.api) }),
          worker: startHerald(['worker'], { ...setup.env, PORT: String(ports.worker) }),
          smtp: startHerald(['smtp'], {
            ...setup.env,
            PORT: String(ports.smtp),
            HERALD_SMTP_PORT: String(smtpPort),
          }),
        };
        started.push(...Object.values(processes));
        const allReady = async () => {
          for (const [name, port] of Object.entries(ports)) {
            await waitForHealthy(processes[name as keyof typeof ports], port, 120_000);
            await until(`${name} ready`, 60_000, async () =>
              (await http(port, 'GET', '/readyz').catch(() => null))?.status === 200 ? true : undefined,
            );
          }
        };
        await allReady();

        const nonce = randomBytes(4).toString('hex');
        const accepted: string[] = [];
        const refused: { status: number; body: unknown }[] = [];
        let sends = 0;
        const send = async () => {
          const i = sends++;
          const response = await http(ports.api, 'POST', '/api/v1/emails', setup.key, {
            from: `Loss test <hello@${setup.domainName}>`,
            to: `rcpt-${i}@example.test`,
            subject: `loss ${nonce} ${i}`,
            text: `Email ${i}.`,
          });
          if (response.status === 200) accepted.push((response.body as { emailId: string }).emailId);
          else refused.push({ status: response.status, body: response.body });
        };
        // Requests run while the connections are ended: each answers, 200 or a 503.
        const sendSome = (count: number) =>
          Promise.all(
            Array.from({ length: SENDERS }, async () => {
              for (let n = 0; n < Math.ceil(count / SENDERS); n++) await send();
            }),
          );

        // Mail to the smtp process meanwhile (to a signed return path, as a bounce comes back): it
        // stores each message before its 250, so one caught by the outage is a 4xx the sender retries.
        const inboundReplies: string[] = [];
        const sendInboundSome = async (count: number) => {
          const returnPath = sink.messages[0]!.envelope.from;
          for (let i = 0; i < count; i++)
            inboundReplies.push(await sendInbound(smtpPort, returnPath, `inbound ${nonce} ${inboundReplies.length}`));
        };

        for (let round = 0; round < TERMINATIONS; round++) {
          const load = sendSome(SENDS_BETWEEN);
          // Once the worker is delivering, so that its connections are in use too.
          const sinkBefore = sink.messages.length;
          await until('the worker delivering', 60_000, async () =>
            sink.messages.length > sinkBefore ? true : undefined,
          );
          const inbound = sendInboundSome(5);
          expect(await terminateEveryConnection(databaseUrl!)).toBeGreaterThan(0);
          await Promise.all([load, inbound]);
          for (const [name, proc] of Object.entries(processes)) {
            expect(proc.hasExited(), `${name} exited:\n${proc.stderr().slice(-3_000)}`).toBe(false);
          }
          await allReady();
        }
        // After the last outage, the API takes emails again at the first try, and the smtp process mail.
        const before = refused.length;
        await sendSome(SENDERS);
        expect(refused.length).toBe(before);
        const inboundBefore = inboundReplies.length;
        await sendInboundSome(1);
        expect(inboundReplies[inboundBefore]).toMatch(/^250 /);
        // Each inbound message was taken (250) or refused for a retry (4xx), never dropped or bounced.
        expect(inboundReplies.filter((reply) => !/^(250|4\d\d) /.test(reply))).toEqual([]);

        for (const failure of refused) {
          expect(failure).toEqual({
            status: 503,
            body: { error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } },
          });
        }
        expect(accepted.length).toBeGreaterThan(0);

        // Every email the database holds (a 503 may still have committed) goes once; nothing else.
        // Work the outage failed is due again within seconds (not after the delivery backoff, 5 minutes).
        let waiting: unknown = null;
        const stored = await until('every stored email SENT', 120_000, async () => {
          const list = await http(ports.api, 'GET', '/api/v1/emails?limit=100', setup.key);
          const emails = (list.body as { data: { id: string; latestStatus: string | null }[] }).data;
          waiting = emails.filter((email) => email.latestStatus !== 'SENT');
          return emails.every((email) => email.latestStatus === 'SENT') ? emails.map((email) => email.id) : undefined;
        }).catch((error: Error) => {
          throw new Error(
            `${error.message}; still waiting: ${JSON.stringify(waiting)}\nworker:\n${processes.worker.stdout().slice(-6000)}\napi:\n${processes.api.stdout().slice(-3000)}`,
          );
        });
        expect(stored).toEqual(expect.arrayContaining(accepted));
        const copies = new Map<string, number>();
        for (const message of sink.messages) {
          const messageId = sinkHeader(message, 'Message-ID');
          copies.set(messageId, (copies.get(messageId) ?? 0) + 1);
        }
        const copiesOf = (id: string) => copies.get(`<${id}@${MAIL_DOMAIN}>`) ?? 0;
        expect(
          stored.filter((id) => copiesOf(id) !== 1).map((id) => `${id}: ${copiesOf(id)} copies`),
          'not delivered exactly once',
        ).toEqual([]);
        expect(sink.messages).toHaveLength(stored.length);

        for (const [name, proc] of Object.entries(processes)) {
          expect(proc.hasExited(), `${name} exited`).toBe(false);
          expect(proc.stderr(), name).not.toMatch(/Unhandled 'error' event/);
        }
      }));
  },
);

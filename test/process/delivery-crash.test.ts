// Crash safety of delivery: kill -9 the process that runs the delivery worker in the middle of a
// batch, start another one, and every email is still sent exactly once; emails scheduled before the
// kill survive it and go once, at their time.
//
// The SMTP sink (plain SMTP: the relay transport checks certificates, and the sink's is self-signed)
// accepts the first 15 messages, then holds its 250 replies. The worker then has a batch in flight:
// some of its emails accepted and written SENT, some received by the sink but waiting for their 250.
// Once every accepted message is SENT in the database, the worker is killed; the sink sees the held
// connections close and never accepts those messages. The killed worker's leases are expired by hand
// (standing for the five minutes of lease time passing) and a new process sends the rest.
//
// What this proves is the property on both sides of the acceptance point: an email whose 250 the
// worker saw is never sent again, and an email whose 250 it did not see is sent once more. The one
// moment it cannot cover is a kill between the relay's 250 and the commit of SENT: that email goes
// out twice (at least once, with the same Message-ID); no SMTP client can close that window.
//
// The database is the embedded one in a data directory, or, with DATABASE_URL set, a fresh database
// on that server created for this test and dropped after it.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { SmtpSink, type SinkMessage } from '../support/smtp-sink.ts';
import {
  cleanUpHeralds,
  freePort,
  heraldEnv,
  http,
  makeDataDir,
  startHerald,
  waitForExit,
  waitForHealthy,
  type HeraldProcess,
} from '../support/spawn.ts';

const EMAILS = 60;
/** Messages the sink accepts before it starts holding its replies. */
const ACCEPTED_BEFORE_HOLD = 15;
const MAIL_DOMAIN = 'mail.herald.test';
/** Scheduled emails queued with the batch, due this long after it. */
const SCHEDULED = 3;
const SCHEDULED_IN_MS = 15_000;

let sink: SmtpSink | null = null;
let dns: TestDnsServer | null = null;
let dropDatabase: (() => Promise<void>) | null = null;

afterEach(async () => {
  await cleanUpHeralds();
  await sink?.close();
  await dns?.close();
  await dropDatabase?.();
  sink = null;
  dns = null;
  dropDatabase = null;
});

/** With DATABASE_URL: a fresh database on that server for this test only (dropped in afterEach). */
async function freshPostgresDatabase(base: string): Promise<string> {
  const url = new URL(base);
  const name = `${url.pathname.replace(/^\//, '') || 'postgres'}_delivery_crash_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  dropDatabase = () => admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  url.pathname = `/${name}`;
  return url.toString();
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function header(message: SinkMessage, name: string): string {
  const head = message.raw
    .toString('utf8')
    .split('\r\n\r\n')[0]!
    .replace(/\r\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head);
  if (!match) throw new Error(`no ${name} header in a sink message`);
  return match[1]!.trim();
}

interface DnsRecord {
  type: string;
  name: string;
  value: string;
  priority: string | null;
}

/** Runs `body`; a failure carries the stderr of the herald processes it started. */
async function withHeraldLogs(body: (started: HeraldProcess[]) => Promise<void>): Promise<void> {
  const started: HeraldProcess[] = [];
  try {
    await body(started);
  } catch (error) {
    if (error instanceof Error) {
      error.message += started
        .map((proc, i) => `\n--- herald #${i + 1} (pid ${proc.pid}) stderr:\n${proc.stderr().slice(-4_000)}`)
        .join('');
    }
    throw error;
  }
}

describe('SIGKILL of the delivery worker mid-batch', { timeout: 240_000 }, () => {
  it('sends every email exactly once', () =>
    withHeraldLogs(async (started) => {
      const t0 = performance.now();
      const phases: string[] = [];
      const phase = (name: string) => phases.push(`${name} ${Math.round(performance.now() - t0)}ms`);
      sink = await SmtpSink.start({ starttls: false });
      dns = await TestDnsServer.start();
      const dataDir = makeDataDir();
      const port = await freePort();
      const databaseUrl = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL) : null;
      const adminToken = randomBytes(24).toString('hex');
      const env = heraldEnv(dataDir, port, {
        LOG_LEVEL: 'warn',
        HERALD_MAIL_TRANSPORT: sink.url,
        HERALD_MAIL_DOMAIN: MAIL_DOMAIN,
        HERALD_DNS_SERVERS: dns.address,
        HERALD_ADMIN_TOKEN: adminToken,
        ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl, HERALD_SECRET: randomBytes(32).toString('hex') }),
      });

      // `herald start` runs the API and the workers (delivery included) in one process: the embedded
      // data directory admits one process only, so this is the process that is killed.
      const first = startHerald(['start'], env);
      started.push(first);
      await waitForHealthy(first, port, 120_000);
      phase('started');
      // A team and its full access key through the admin API: with DATABASE_URL there is no first-start
      // banner (a server deployment provisions that way), so both modes do the same.
      const admin = async (method: string, path: string, body: unknown) => {
        const response = await http(port, method, `/admin/v1${path}`, adminToken, body);
        expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
        return response.body as { id: number | string; key?: string };
      };
      const team = await admin('POST', '/teams', { name: 'delivery crash', plan: 'pro' });
      // Polling 60 emails one by one is more than the default 10 requests per second.
      await admin('PATCH', `/teams/${team.id}`, { apiRateLimit: 10_000 });
      const owner = await admin('POST', `/teams/${team.id}/members`, { email: 'owner@example.test', role: 'OWNER' });
      const key = (await admin('POST', `/teams/${team.id}/api-keys`, { kind: 'full', memberId: owner.id })).key!;

      // A verified sending domain through the real route: its records published on the loopback DNS
      // server that HERALD_DNS_SERVERS points at, checked by the worker's domain-check queue.
      const domainName = `d${randomBytes(5).toString('hex')}.example.com`;
      const created = await http(port, 'POST', '/api/v1/domains', key, { name: domainName, region: 'us-east-1' });
      expect(created.status, created.text).toBe(200);
      const domain = created.body as { id: number; dnsRecords: DnsRecord[] };
      for (const record of domain.dnsRecords) {
        if (record.type === 'MX') dns.setMx(record.name, { exchange: record.value, priority: Number(record.priority) });
        else dns.setTxt(record.name, record.value);
      }
      await until('domain verified', 60_000, async () => {
        const current = await http(port, 'GET', `/api/v1/domains/${domain.id}`, key);
        const { status, isVerifying } = current.body as { status: string; isVerifying: boolean };
        if (status === 'SUCCESS') return true;
        // A DNS answer lost under load is a temporary failure, rechecked only minutes later: ask again.
        if (!isVerifying && status !== 'NOT_STARTED' && status !== 'PENDING')
          await http(port, 'PUT', `/api/v1/domains/${domain.id}/verify`, key);
        return undefined;
      });

      phase('domain verified');
      sink.holdReplies({ afterRecorded: ACCEPTED_BEFORE_HOLD });
      const nonce = randomBytes(4).toString('hex');
      const batch = Array.from({ length: EMAILS }, (_, i) => ({
        from: `Crash test <hello@${domainName}>`,
        to: `rcpt-${i}@example.test`,
        subject: `crash ${nonce} ${i}`,
        text: `Email ${i} of ${EMAILS}.`,
      }));
      const queued = await http(port, 'POST', '/api/v1/emails/batch', key, batch);
      expect(queued.status, queued.text).toBe(200);
      const ids = (queued.body as { data: { emailId: string }[] }).data.map((entry) => entry.emailId);
      expect(ids).toHaveLength(EMAILS);
      const subjectOf = new Map(ids.map((id, i) => [id, batch[i]!.subject]));
      // Scheduled emails queued before the kill: they wait for their time, survive the restart and go once.
      const scheduledAt = new Date(Date.now() + SCHEDULED_IN_MS);
      const scheduledBatch = Array.from({ length: SCHEDULED }, (_, i) => ({
        ...batch[0]!,
        to: `later-${i}@example.test`,
        subject: `later ${nonce} ${i}`,
        scheduledAt: scheduledAt.toISOString(),
      }));
      const scheduledQueued = await http(port, 'POST', '/api/v1/emails/batch', key, scheduledBatch);
      expect(scheduledQueued.status, scheduledQueued.text).toBe(200);
      const scheduledIds = (scheduledQueued.body as { data: { emailId: string }[] }).data.map((entry) => entry.emailId);
      const messageIdOf = (id: string) => `<${id}@${MAIL_DOMAIN}>`;
      const emailOf = new Map([...ids, ...scheduledIds].map((id) => [messageIdOf(id), id]));

      // The worker is mid-batch: some messages accepted, the next ones received but not yet answered.
      await sink.waitFor((s) => s.heldCount > 0, 'a held reply', 60_000);
      expect(sink.messages).toHaveLength(ACCEPTED_BEFORE_HOLD);
      // Whatever the worker saw accepted, it has written: every accepted message's email is SENT.
      const accepted = sink.messages.map((message) => emailOf.get(header(message, 'Message-ID'))!);
      expect(accepted).not.toContain(undefined);
      await until('accepted emails written SENT', 30_000, async () => {
        for (const id of accepted) {
          const email = await http(port, 'GET', `/api/v1/emails/${id}`, key);
          if (
            !(email.body as { emailEvents: { status: string }[] }).emailEvents.some((event) => event.status === 'SENT')
          )
            return undefined;
        }
        return true;
      });
      // A moment for the other connections of the batch to reach their held reply too.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const heldAtKill = sink.heldCount;

      phase('accepted written');
      first.kill('SIGKILL');
      expect(await waitForExit(first, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      // The sink notices the killed client's connections close; their messages were never accepted.
      await sink.waitFor((s) => s.heldCount === 0 && s.openConnections === 0, 'held connections closed', 10_000);
      sink.releaseReplies();
      expect(sink.messages).toHaveLength(ACCEPTED_BEFORE_HOLD);
      expect(sink.abandoned.length).toBeGreaterThanOrEqual(heldAtKill);
      expect(sink.abandoned.length).toBeGreaterThan(0);
      const abandonedIds = sink.abandoned.map((message) => emailOf.get(header(message, 'Message-ID'))!);

      // The killed worker's leases would expire after 5 minutes; moving them into the past stands for
      // that time passing. No herald process is running now, so the test may open the database itself.
      phase('killed');
      const database = await connectDatabase({ databaseUrl, dataDir });
      let leased: number;
      try {
        const held = await sql<{
          id: string;
        }>`SELECT id FROM emails WHERE lease_until IS NOT NULL AND status IN ('QUEUED', 'SCHEDULED')`.execute(
          database.db,
        );
        leased = held.rows.length;
        // Every email the sink abandoned was in a batch the dead worker still held.
        expect(held.rows.map((row) => row.id)).toEqual(expect.arrayContaining(abandonedIds));
        await sql`UPDATE emails SET lease_until = now() - interval '1 second' WHERE lease_until IS NOT NULL`.execute(
          database.db,
        );
      } finally {
        await database.close();
      }
      expect(leased).toBeGreaterThan(0);

      phase('leases expired');
      const second = startHerald(['start'], env);
      started.push(second);
      await waitForHealthy(second, port, 120_000);
      await until(`all ${EMAILS} emails SENT`, 120_000, async () => {
        const list = await http(port, 'GET', '/api/v1/emails?limit=100', key);
        const statuses = new Map(
          (list.body as { data: { id: string; latestStatus: string | null }[] }).data.map((email) => [
            email.id,
            email.latestStatus,
          ]),
        );
        return ids.every((id) => statuses.get(id) === 'SENT') ? true : undefined;
      });

      phase('all sent');
      await until(`the ${SCHEDULED} scheduled emails SENT`, 120_000, async () => {
        const list = await http(port, 'GET', '/api/v1/emails?limit=100', key);
        const statuses = new Map(
          (list.body as { data: { id: string; latestStatus: string | null }[] }).data.map((email) => [
            email.id,
            email.latestStatus,
          ]),
        );
        return scheduledIds.every((id) => statuses.get(id) === 'SENT') ? true : undefined;
      });
      phase('scheduled sent');
      for (const id of scheduledIds) {
        const copies = sink.messages.filter((message) => header(message, 'Message-ID') === messageIdOf(id));
        expect(copies, `copies of scheduled ${id}`).toHaveLength(1);
        // Sent at its time, not before (the Date header is the moment the worker built the message).
        expect(new Date(header(copies[0]!, 'Date')).getTime()).toBeGreaterThanOrEqual(scheduledAt.getTime() - 1000);
      }
      // Exactly once, by Message-ID and by subject; nothing else reached the sink.
      const seen = new Map<string, number>();
      const subjects = new Map<string, number>();
      for (const message of sink.messages) {
        const messageId = header(message, 'Message-ID');
        seen.set(messageId, (seen.get(messageId) ?? 0) + 1);
        const subject = header(message, 'Subject');
        subjects.set(subject, (subjects.get(subject) ?? 0) + 1);
      }
      const duplicates = [...seen].filter(([, count]) => count > 1).map(([messageId]) => messageId);
      expect(duplicates, 'sent more than once').toEqual([]);
      expect(
        ids.filter((id) => seen.get(messageIdOf(id)) !== 1),
        'not sent exactly once',
      ).toEqual([]);
      expect(
        ids.filter((id) => subjects.get(subjectOf.get(id)!) !== 1),
        'subject not seen exactly once',
      ).toEqual([]);
      expect(sink.messages).toHaveLength(EMAILS + SCHEDULED);
      for (const id of ids) {
        const email = await http(port, 'GET', `/api/v1/emails/${id}`, key);
        expect(email.status).toBe(200);
        const sent = (email.body as { emailEvents: { status: string }[] }).emailEvents.filter(
          (event) => event.status === 'SENT',
        );
        expect(sent, `SENT events of ${id}`).toHaveLength(1);
      }
      expect(second.hasExited()).toBe(false);
      console.info(
        `delivery-crash: ${databaseUrl === null ? 'embedded' : 'postgres'}; accepted before kill ${ACCEPTED_BEFORE_HOLD}, held at kill ${heldAtKill}, ` +
          `abandoned ${sink.abandoned.length}, leased at kill ${leased}, total accepted ${sink.messages.length}; ${phases.join(', ')}`,
      );
    }));
});

// Crash safety of SMS delivery: kill -9 the worker while the provider holds its messages, start
// another process, and no message is sent twice nor charged twice.
//
// The fake Twilio receives the worker's requests and never answers them (`hang`): the provider has
// the messages and Herald has written no outcome, which is the window between the provider's answer
// and the write as Herald sees it. The worker is killed there. Twilio cannot be asked whether it has
// a message of ours, so the next worker must not send these again: it finds the vanished claims
// (attempts ran ahead of recorded outcomes), rejects them and returns each charge once. A message
// sent after the restart goes out once, as usual.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogSmsProvider } from '../../src/adapters/sms-provider/index.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { smsDeliveryQueue } from '../../src/sms/index.ts';
import { freshPostgresDatabase } from '../support/fresh-database.ts';
import { FakeTwilio } from '../support/fake-twilio.ts';
import {
  cleanUpHeralds,
  freePort,
  heraldEnv,
  http,
  makeDataDir,
  startHerald,
  waitForExit,
  waitForHealthy,
  until,
  withHeraldLogs,
} from '../support/spawn.ts';

// Each message is sent alone, so each is claimed alone: one per batch the worker holds at once.
const HELD = smsDeliveryQueue({ provider: createLogSmsProvider(async () => {}) }).concurrency;
const TOP_UP_MINOR = 100_000;

let twilio: FakeTwilio | null = null;
let dropDatabase: (() => Promise<void>) | null = null;

afterEach(async () => {
  await cleanUpHeralds();
  await twilio?.close();
  await dropDatabase?.();
  twilio = null;
  dropDatabase = null;
});

/** The numbers the fake was asked to send to, one entry per request. */
const requestedNumbers = (fake: FakeTwilio) =>
  fake.requests.filter((r) => r.path.endsWith('/Messages.json')).map((r) => new URLSearchParams(r.body).get('To'));

describe('SIGKILL of the SMS worker while the provider holds its messages', { timeout: 240_000 }, () => {
  it('sends no message twice and returns each charge once', () =>
    withHeraldLogs(async (started) => {
      twilio = await FakeTwilio.start();
      twilio.respondWith('hang');
      const dataDir = makeDataDir();
      const port = await freePort();
      const fresh = process.env.DATABASE_URL
        ? await freshPostgresDatabase(process.env.DATABASE_URL, 'sms_crash')
        : null;
      dropDatabase = fresh?.drop ?? null;
      const databaseUrl = fresh?.url ?? null;
      const adminToken = randomBytes(24).toString('hex');
      const env = heraldEnv(dataDir, port, {
        LOG_LEVEL: 'warn',
        HERALD_ADMIN_TOKEN: adminToken,
        HERALD_SMS_PROVIDER: 'twilio',
        HERALD_TWILIO_ACCOUNT_SID: twilio.accountSid,
        HERALD_TWILIO_AUTH_TOKEN: twilio.authToken,
        HERALD_TWILIO_API_URL: twilio.url,
        ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl, HERALD_SECRET: randomBytes(32).toString('hex') }),
      });

      // `herald start` runs the API and the workers in one process: this is the process that is killed.
      const first = startHerald(['start'], env);
      started.push(first);
      await waitForHealthy(first, port, 120_000);
      const admin = async (method: string, path: string, body?: unknown) => {
        const response = await http(port, method, `/admin/v1${path}`, adminToken, body);
        expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
        return response.body as Record<string, unknown>;
      };
      const team = await admin('POST', '/teams', { name: 'sms crash', smsEnabled: true });
      // The test polls its messages every 20 ms; the default 10 requests a second would refuse it.
      await admin('PATCH', `/teams/${team.id}`, { apiRateLimit: 1000 });
      const owner = await admin('POST', `/teams/${team.id}/members`, { email: 'owner@example.test', role: 'OWNER' });
      const key = (await admin('POST', `/teams/${team.id}/api-keys`, { kind: 'full', memberId: owner.id }))
        .key as string;
      await admin('POST', `/teams/${team.id}/wallet/top-ups`, { amountMinor: TOP_UP_MINOR, reference: 'crash-test' });

      const numbers = Array.from({ length: HELD }, (_, i) => `+1415555${String(2671 + i)}`);
      const ids: string[] = [];
      for (const to of numbers) {
        const sent = await http(port, 'POST', '/api/v1/sms', key, { to, text: `crash test to ${to.slice(-4)}` });
        expect(sent.status, sent.text).toBe(201);
        ids.push((sent.body as { id: string }).id);
      }
      // Every message is with the provider, none answered: kill the worker there.
      await until('the provider holding every message', 60_000, async () =>
        requestedNumbers(twilio!).length >= HELD ? true : undefined,
      );
      first.kill('SIGKILL');
      expect(await waitForExit(first, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      expect(requestedNumbers(twilio).sort()).toEqual([...numbers].sort());

      // The dead worker's leases would expire after 2 minutes; moving them into the past stands for
      // that time passing. No herald process runs now, so the test may open the database itself.
      const database = await connectDatabase({ databaseUrl, dataDir });
      try {
        const leased = await sql<{ id: string }>`
          SELECT m.id FROM sms_messages m JOIN sms_deliveries d ON d.sms_id = m.id
          WHERE d.lease_until IS NOT NULL AND m.status = 'queued'`.execute(database.db);
        expect(leased.rows.map((row) => row.id).sort()).toEqual([...ids].sort());
        await sql`UPDATE sms_deliveries SET lease_until = now() - interval '1 second'
          WHERE lease_until IS NOT NULL`.execute(database.db);
      } finally {
        await database.close();
      }

      twilio.respondWith('accept');
      const second = startHerald(['start'], env);
      started.push(second);
      await waitForHealthy(second, port, 120_000);
      for (const id of ids) {
        const settled = await until(`${id} settled`, 60_000, async () => {
          const read = await http(port, 'GET', `/api/v1/sms/${id}`, key);
          const body = read.body as { status: string; reason: { code: string } | null };
          return body.status === 'queued' ? undefined : body;
        });
        expect(settled.status).toBe('rejected');
        expect(settled.reason?.code).toBe('unknown');
      }
      // A message sent after the restart goes out once.
      const after = await http(port, 'POST', '/api/v1/sms', key, { to: '+14155552680', text: 'after the crash' });
      expect(after.status, after.text).toBe(201);
      const afterId = (after.body as { id: string }).id;
      await until('the new message sent', 60_000, async () => {
        const read = await http(port, 'GET', `/api/v1/sms/${afterId}`, key);
        return (read.body as { status: string }).status === 'sent' ? true : undefined;
      });
      expect(requestedNumbers(twilio).sort()).toEqual([...numbers, '+14155552680'].sort());

      // Each held message: one charge and one release; the new one: one charge. The balance agrees.
      const ledger = await admin('GET', `/teams/${team.id}/wallet/transactions?limit=100`);
      const rows = ledger.data as { type: string; reference: string; amountMinor: string }[];
      for (const id of ids) {
        expect(
          rows
            .filter((row) => row.reference === id)
            .map((row) => row.type)
            .sort(),
        ).toEqual(['SMS_CHARGE', 'SMS_RELEASE']);
      }
      expect(rows.filter((row) => row.reference === afterId).map((row) => row.type)).toEqual(['SMS_CHARGE']);
      const wallet = await admin('GET', `/teams/${team.id}/wallet`);
      const afterCharge = rows.find((row) => row.reference === afterId)!;
      expect(BigInt(wallet.balanceMinor as string | number)).toBe(
        BigInt(TOP_UP_MINOR) + BigInt(afterCharge.amountMinor),
      );
    }));
});

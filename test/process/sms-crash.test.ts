// Crash safety of SMS delivery: kill -9 the worker while the provider holds its messages, start
// another process, and no message the provider had is sent twice, refunded, or charged twice.
//
// The fake Twilio receives the worker's requests and answers none of them: half it takes
// (`accept-silently`: the provider has the message, Herald has written no outcome, the window
// between the provider's answer and the write as Herald sees it), half it never takes (`hang`).
// The worker is killed there. The next worker finds the vanished claims (attempts ran ahead of
// recorded outcomes) and looks each up in Twilio's Messages list: the ones Twilio has are recorded
// `sent` with Twilio's id (its reports then apply) and keep their charge; the ones it does not have
// are sent once more. A message sent after the restart goes out once, as usual.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogSmsProvider } from '../../src/adapters/sms-provider/index.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { smsDeliveryQueue } from '../../src/sms/index.ts';
import type { FakeTwilio } from '../support/fake-twilio.ts';
import { SmsTestServices, startSmsHerald } from '../support/sms-herald.ts';
import {
  cleanUpHeralds,
  http,
  startHerald,
  waitForExit,
  waitForHealthy,
  until,
  withHeraldLogs,
} from '../support/spawn.ts';

// Each message is sent alone, so each is claimed alone: one per batch the worker holds at once.
const HELD = smsDeliveryQueue({ provider: createLogSmsProvider(async () => {}) }).concurrency;
const TOP_UP_MINOR = 100_000;

const services = new SmsTestServices();

afterEach(async () => {
  await cleanUpHeralds();
  await services.close();
});

/** The numbers the fake was asked to send to, one entry per request. */
const requestedNumbers = (fake: FakeTwilio) =>
  fake.requests
    .filter((r) => r.method === 'POST' && r.path.endsWith('/Messages.json'))
    .map((r) => new URLSearchParams(r.body).get('To'));

describe('SIGKILL of the SMS worker while the provider holds its messages', { timeout: 240_000 }, () => {
  it('sends no message the provider had twice nor refunds it; the others go once more, charged once', () =>
    withHeraldLogs(async (started) => {
      const { twilio, databaseUrl } = await services.start('sms_crash');
      twilio.respondWith('hang');
      const taken = Math.ceil(HELD / 2);
      twilio.enqueue(...Array.from({ length: taken }, () => 'accept-silently' as const));
      // `herald start` runs the API and the workers in one process: this is the process that is killed.
      const {
        process: first,
        env,
        dataDir,
        port,
        key,
        teamId,
        admin,
      } = await startSmsHerald(started, {
        teamName: 'sms crash',
        twilio,
        databaseUrl,
        topUpMinor: TOP_UP_MINOR,
        topUpReference: 'crash-test',
      });

      const numbers = Array.from({ length: HELD }, (_, i) => `+1415555${String(2671 + i)}`);
      const ids: string[] = [];
      for (const to of numbers) {
        const sent = await http(port, 'POST', '/api/v1/sms', key, { to, text: `crash test to ${to.slice(-4)}` });
        expect(sent.status, sent.text).toBe(201);
        ids.push((sent.body as { id: string }).id);
      }
      // Every message is with the provider, none answered: kill the worker there.
      await until('the provider holding every message', 60_000, async () =>
        requestedNumbers(twilio).length >= HELD ? true : undefined,
      );
      first.kill('SIGKILL');
      expect(await waitForExit(first, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      expect(requestedNumbers(twilio).sort()).toEqual([...numbers].sort());
      // What the provider had when the worker died: each its own message, by number.
      const had = new Map(twilio.messages.map((m) => [m.to, m.sid]));
      expect(had.size).toBe(taken);

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
        expect(settled.status).toBe('sent');
        expect(settled.reason).toBeNull();
      }
      // The ones Twilio had were not sent again; the others were, once.
      const missing = numbers.filter((to) => !had.has(to));
      expect(requestedNumbers(twilio).sort()).toEqual([...numbers, ...missing].sort());
      // Twilio's ids were recorded from its list: its report for one now finds the message.
      const [to, sid] = [...had][0]!;
      const callback = twilio.messages.find((m) => m.sid === sid)!.statusCallback!;
      expect((await twilio.postStatus(callback, { sid, status: 'delivered' })).status).toBe(200);
      const reported = ids[numbers.indexOf(to)]!;
      await until('the report applied', 30_000, async () => {
        const read = await http(port, 'GET', `/api/v1/sms/${reported}`, key);
        return (read.body as { status: string }).status === 'delivered' ? true : undefined;
      });
      // A message sent after the restart goes out once.
      const after = await http(port, 'POST', '/api/v1/sms', key, { to: '+14155552680', text: 'after the crash' });
      expect(after.status, after.text).toBe(201);
      const afterId = (after.body as { id: string }).id;
      await until('the new message sent', 60_000, async () => {
        const read = await http(port, 'GET', `/api/v1/sms/${afterId}`, key);
        return (read.body as { status: string }).status === 'sent' ? true : undefined;
      });
      expect(requestedNumbers(twilio).sort()).toEqual([...numbers, ...missing, '+14155552680'].sort());

      // Each held message and the new one: one charge, no release. The balance agrees.
      const ledger = await admin('GET', `/teams/${teamId}/wallet/transactions?limit=100`);
      const rows = ledger.data as { type: string; reference: string; amountMinor: string }[];
      for (const id of ids) {
        expect(
          rows
            .filter((row) => row.reference === id)
            .map((row) => row.type)
            .sort(),
        ).toEqual(['SMS_CHARGE']);
      }
      expect(rows.filter((row) => row.reference === afterId).map((row) => row.type)).toEqual(['SMS_CHARGE']);
      const wallet = await admin('GET', `/teams/${teamId}/wallet`);
      const charged = rows
        .filter((row) => row.type === 'SMS_CHARGE')
        .reduce((sum, row) => sum + BigInt(row.amountMinor), 0n);
      expect(BigInt(wallet.balanceMinor as string | number)).toBe(BigInt(TOP_UP_MINOR) + charged);
    }));
});

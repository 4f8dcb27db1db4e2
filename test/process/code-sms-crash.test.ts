// A one-time code by SMS after a worker crash: the SMS delivery lease is seconds long and renewed
// while a batch's provider calls go on, so a code whose worker is killed mid-call is settled within
// moments of a new worker starting (not after the two minutes the lease used to last), and reaches
// the provider once.
//
// The fake Twilio takes the code's message and never answers (the provider has it; Herald wrote no
// outcome). The worker is killed there. The next worker finds the vanished claim and looks it up in
// Twilio's Messages list instead of sending it again: the code is `sent`, once, and checks out.
//
// The database is the embedded one in a data directory, or, with DATABASE_URL set, a fresh database
// on that server created for this test and dropped after it.
import { afterEach, describe, expect, it } from 'vitest';
import { SmsTestServices, startSmsHerald } from '../support/sms-herald.ts';
import {
  cleanUpHeralds,
  http,
  startHerald,
  until,
  waitForExit,
  waitForHealthy,
  withHeraldLogs,
} from '../support/spawn.ts';

/** From the kill to the code settled, restart included: well below the old two-minute lease. */
const SETTLED_WITHIN_MS = 90_000;
const TO = '+14155552671';

const services = new SmsTestServices();

afterEach(async () => {
  await cleanUpHeralds();
  await services.close();
});

describe('SIGKILL of the worker while a code SMS is at the provider', { timeout: 240_000 }, () => {
  it('the code is settled within moments of a new worker, and reaches the provider once', () =>
    withHeraldLogs(async (started) => {
      const { twilio, databaseUrl } = await services.start('code_sms_crash');
      twilio.respondWith('hang');
      twilio.enqueue('accept-silently');
      const {
        process: first,
        env,
        port,
        key,
      } = await startSmsHerald(started, {
        teamName: 'code sms crash',
        twilio,
        databaseUrl,
        topUpMinor: 10_000,
        topUpReference: 'code-crash',
      });

      const sent = await http(port, 'POST', '/api/v1/verify/send', key, { channel: 'sms', to: TO, appName: 'Crash' });
      expect(sent.status, sent.text).toBe(201);
      const verificationId = (sent.body as { id: string }).id;
      // The provider has the message and has not answered: kill the worker there.
      await until('the provider holding the code', 60_000, async () => (twilio.sendRequests >= 1 ? true : undefined));
      first.kill('SIGKILL');
      expect(await waitForExit(first, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      const killedAt = Date.now();
      expect(twilio.messages.map((m) => m.to)).toEqual([TO]);

      twilio.respondWith('accept');
      const second = startHerald(['start'], env);
      started.push(second);
      await waitForHealthy(second, port, SETTLED_WITHIN_MS);
      const healthyAfterMs = Date.now() - killedAt;
      await until(
        `the code settled within ${SETTLED_WITHIN_MS} ms of the kill`,
        SETTLED_WITHIN_MS - healthyAfterMs,
        async () => {
          const read = await http(port, 'GET', `/api/v1/verify/${verificationId}`, key);
          return (read.body as { deliveryStatus: string | null }).deliveryStatus === 'sent' ? true : undefined;
        },
      );
      const settledAfterMs = Date.now() - killedAt;
      expect(settledAfterMs).toBeLessThan(SETTLED_WITHIN_MS);

      // Once: the provider was asked to send it once (the next worker looked it up instead).
      expect(twilio.sendRequests).toBe(1);
      expect(twilio.messages).toHaveLength(1);
      const code = /your code is (\d+)\./.exec(twilio.messages[0]!.body)![1]!;
      const checked = await http(port, 'POST', '/api/v1/verify/check', key, { id: verificationId, code });
      expect(checked.status, checked.text).toBe(200);
      expect((checked.body as { verified: boolean }).verified).toBe(true);
      console.info(
        `code-sms-crash: ${databaseUrl === null ? 'embedded' : 'postgres'}; healthy ${healthyAfterMs} ms and ` +
          `the code settled ${settledAfterMs} ms after the kill`,
      );
    }));
});

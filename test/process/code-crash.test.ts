// A one-time code email after a worker crash: the delivery lease is seconds long and renewed while a
// send goes on, so a code whose worker is killed mid-send arrives within moments of a new worker
// starting (not after the five minutes a lease used to last: codes expire in ten), and exactly once.
//
// The SMTP sink holds its 250 replies (a slow relay). First the worker stays alive, holding the code's
// send open for longer than a lease: the renewed lease keeps the email its own, so no second copy
// goes out beside the slow one. Then it is killed with SIGKILL; the sink sees the connection close
// and never accepts that copy. A new process on the same database sends the code once, within a
// bound far below five minutes of the kill, and the code it carries checks out.
//
// The database is the embedded one in a data directory, or, with DATABASE_URL set, a fresh database
// on that server created for this test and dropped after it.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERY_LEASE_MS } from '../../src/emails/delivery.ts';
import { MailTestServices, sinkHeader } from '../support/mail-herald.ts';
import type { SinkMessage } from '../support/smtp-sink.ts';
import {
  cleanUpHeralds,
  http,
  startHerald,
  until,
  waitForExit,
  waitForHealthy,
  withHeraldLogs,
} from '../support/spawn.ts';

const MAIL_DOMAIN = 'mail.herald.test';
/** From the kill to the code in the sink, restart included: far below the old five-minute lease. */
const ARRIVES_WITHIN_MS = 120_000;

const services = new MailTestServices();

afterEach(async () => {
  await cleanUpHeralds();
  await services.close();
});

describe('SIGKILL of the worker while a code email is being sent', { timeout: 300_000 }, () => {
  it('the code arrives within moments of a new worker, exactly once, and a slow live send is not doubled', () =>
    withHeraldLogs(async (started) => {
      const { herald, sink, databaseUrl } = await services.startHerald(started, {
        databaseLabel: 'code_crash',
        teamName: 'code crash',
        mailDomain: MAIL_DOMAIN,
      });
      const { port, key, domainName, env } = herald;
      sink.holdReplies();
      const appName = `Crash ${randomBytes(4).toString('hex')}`;
      const sent = await http(port, 'POST', '/api/v1/verify/send', key, {
        to: 'person@example.test',
        from: `hello@${domainName}`,
        appName,
      });
      expect(sent.status, sent.text).toBe(201);
      const verificationId = (sent.body as { id: string }).id;
      const ofThisCode = (message: SinkMessage) => sinkHeader(message, 'Subject').startsWith(appName);

      // Slow but alive: the reply is held for one and a half leases. Another claim of the email in that
      // time would open a second connection with a second copy; the renewed lease keeps it away.
      await sink.waitFor((s) => s.heldCount === 1, "the code's reply held", 60_000);
      const heldSince = Date.now();
      await sink.waitFor(
        (s) => s.heldCount > 1 || Date.now() - heldSince > DELIVERY_LEASE_MS * 1.5,
        'one and a half leases, or a second copy',
        DELIVERY_LEASE_MS * 3,
      );
      expect(sink.heldCount, 'copies of the code under way').toBe(1);

      // Killed mid-send: the sink never accepts the copy whose 250 it held.
      herald.process.kill('SIGKILL');
      expect(await waitForExit(herald.process, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      const killedAt = Date.now();
      await sink.waitFor((s) => s.heldCount === 0 && s.openConnections === 0, 'the held connection closed', 10_000);
      sink.releaseReplies();
      expect(sink.abandoned.filter(ofThisCode)).toHaveLength(1);
      expect(sink.messages).toHaveLength(0);

      const second = startHerald(['start'], env);
      started.push(second);
      await waitForHealthy(second, port, ARRIVES_WITHIN_MS);
      const healthyAfterMs = Date.now() - killedAt;
      await sink.waitFor(
        (s) => s.messages.some(ofThisCode),
        `the code delivered within ${ARRIVES_WITHIN_MS} ms of the kill`,
        Math.max(0, ARRIVES_WITHIN_MS - healthyAfterMs),
      );
      const arrivedAfterMs = Date.now() - killedAt;
      expect(arrivedAfterMs).toBeLessThan(ARRIVES_WITHIN_MS);

      // Once: the email is written SENT, and the sink has this one copy.
      const [message] = sink.messages.filter(ofThisCode);
      const emailId = /^<([^@]+)@/.exec(sinkHeader(message!, 'Message-ID'))![1]!;
      await until('the code email SENT', 60_000, async () => {
        const email = await http(port, 'GET', `/api/v1/emails/${emailId}`, key);
        const events = (email.body as { emailEvents: { status: string }[] }).emailEvents;
        return events.some((event) => event.status === 'SENT') ? true : undefined;
      });
      expect(sink.messages.filter(ofThisCode)).toHaveLength(1);
      expect(sink.messages).toHaveLength(1);

      // And the code it carries is the one the verification wants.
      const code = /verification code: (\d+)$/.exec(sinkHeader(message!, 'Subject'))![1]!;
      const checked = await http(port, 'POST', '/api/v1/verify/check', key, { id: verificationId, code });
      expect(checked.status, checked.text).toBe(200);
      expect((checked.body as { verified: boolean }).verified).toBe(true);
      console.info(
        `code-crash: ${databaseUrl === null ? 'embedded' : 'postgres'}; lease ${DELIVERY_LEASE_MS} ms; ` +
          `healthy ${healthyAfterMs} ms and code delivered ${arrivedAfterMs} ms after the kill`,
      );
    }));
});

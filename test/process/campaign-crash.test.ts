// Crash safety of the campaign fan-out: kill -9 the process that runs it in the middle of a chunk,
// start another one, and every contact of the campaign still gets exactly one email: stored once,
// and accepted once by the SMTP sink.
//
// A campaign to RECIPIENTS contacts (batchSize 1,000: the fan-out sends them in chunks of 250, two
// in flight, each chunk one transaction that stores its emails and writes each recipient's email
// id). The kill must land inside one:
// - on PostgreSQL the test holds the team's usage row of the day, which a chunk's statement storing
//   its emails takes (after the chunk has locked its recipients and written their email ids), waits
//   until that statement is blocked on it, and kills the process there: the test then checks
//   nothing of that chunk was committed;
// - on the embedded database no second process may open it, so the kill comes right after the
//   schedule's answer, while the fan-out works; what the dead worker left is counted and reported.
// The killed worker's leases are then expired by hand (standing for the minutes passing) and a new
// process finishes the campaign.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import { killWhileBlocked } from '../support/kill-while-blocked.ts';
import { MailTestServices, sinkHeader, startMailHerald } from '../support/mail-herald.ts';
import {
  cleanUpHeralds,
  http,
  startHerald,
  waitForExit,
  waitForHealthy,
  until,
  withHeraldLogs,
} from '../support/spawn.ts';

const RECIPIENTS = 400;
const MAIL_DOMAIN = 'mail.herald.test';

const services = new MailTestServices();

afterEach(async () => {
  await cleanUpHeralds();
  await services.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('SIGKILL of the campaign fan-out mid-chunk', { timeout: 300_000 }, () => {
  it('sends every contact exactly one email', () =>
    withHeraldLogs(async (started) => {
      const { sink, dns, databaseUrl } = await services.start('campaign_crash');
      const herald = await startMailHerald(started, {
        teamName: 'campaign crash',
        sink,
        dns,
        mailDomain: MAIL_DOMAIN,
        databaseUrl,
      });
      const { port, key, domainName, env, dataDir } = herald;
      const first = herald.process;
      const api = async (method: string, path: string, body?: unknown) => {
        const response = await http(port, method, `/api${path}`, key, body);
        expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
        return response.body as Json;
      };

      const nonce = randomBytes(4).toString('hex');
      const book = await api('POST', '/v1/contactBooks', { name: 'Crash' });
      const contacts = Array.from({ length: RECIPIENTS }, (_, i) => ({
        email: `reader-${i}@example.test`,
        firstName: `Reader${i}`,
      }));
      await api('POST', `/v1/contactBooks/${book.id}/contacts/bulk`, contacts);
      const campaign = await api('POST', '/v1/campaigns', {
        name: 'Crash',
        from: `Crash test <news@${domainName}>`,
        subject: `News ${nonce}`,
        contactBookId: book.id,
        html: '<p>Hello {{firstName}}</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>',
        batchSize: 1000,
      });

      // The sink holds every 250 until after the kill: only the fan-out's crash window is tested here.
      sink.holdReplies({ afterRecorded: 0 });
      if (databaseUrl !== null) {
        // One email first, so the team's usage row of the day exists; the test holds it, and the
        // campaign's first chunk blocks on it when it stores its emails.
        await api('POST', '/v1/emails', {
          from: `news@${domainName}`,
          to: 'first@example.test',
          subject: 'x',
          html: '<p>x</p>',
        });
        await killWhileBlocked(databaseUrl, first, {
          lock: sql`SELECT 1 FROM team_daily_usage WHERE team_id = ${herald.teamId} FOR UPDATE`,
          // The statement storing the emails (insert-queries.ts): pg_stat_activity shows its first
          // 1,024 characters, which name its first CTE, not the usage row further on.
          waitingOn: 'new_emails',
          start: () => api('POST', `/v1/campaigns/${campaign.id}/schedule`, {}),
        });
      } else {
        await api('POST', `/v1/campaigns/${campaign.id}/schedule`, {});
        first.kill('SIGKILL');
        expect(await waitForExit(first, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      }

      await sink.waitFor((x) => x.heldCount === 0 && x.openConnections === 0, 'held connections closed', 10_000);
      sink.releaseReplies();
      expect(sink.messages).toHaveLength(0);

      // No process runs now: what the dead worker left, then its leases expired by hand.
      const database = await connectDatabase({ databaseUrl, dataDir });
      let storedAtKill: number;
      try {
        const { rows } = await sql<{ stored: number; given: number }>`SELECT
            (SELECT count(*)::integer FROM emails WHERE campaign_id = ${campaign.id}::text) AS stored,
            (SELECT count(*)::integer FROM campaign_recipients WHERE campaign_id = ${campaign.id}::text
              AND email_id IS NOT NULL) AS given`.execute(database.db);
        storedAtKill = rows[0]!.stored;
        // Every stored email is a recipient's, and every recipient with one has exactly that one.
        expect(rows[0]!.given).toBe(storedAtKill);
        // The chunk held at the usage row committed nothing: no recipient had an email yet.
        if (databaseUrl !== null) expect(storedAtKill).toBe(0);
        for (const table of ['campaigns', 'emails'])
          await sql`UPDATE ${sql.table(table)} SET lease_until = now() - interval '1 second' WHERE lease_until IS NOT NULL`.execute(
            database.db,
          );
      } finally {
        await database.close();
      }

      const second = startHerald(['start'], env);
      started.push(second);
      await waitForHealthy(second, port, 120_000);
      await until('the campaign SENT', 180_000, async () => {
        const current = await api('GET', `/v1/campaigns/${campaign.id}`);
        return current.status === 'SENT' ? current : undefined;
      });
      // On PostgreSQL one more: the email that made the usage row.
      const extra = databaseUrl === null ? 0 : 1;
      await sink.waitForMessages(RECIPIENTS + extra, 180_000);
      // A moment for anything sent twice to arrive too.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const seen = new Map<string, number>();
      const ofCampaign = sink.messages.filter((message) => sinkHeader(message, 'Subject') === `News ${nonce}`);
      for (const message of ofCampaign) {
        const to = sinkHeader(message, 'To');
        seen.set(to, (seen.get(to) ?? 0) + 1);
      }
      expect(
        contacts.map((c) => c.email).filter((email) => seen.get(email) !== 1),
        'not received exactly once',
      ).toEqual([]);
      expect(ofCampaign).toHaveLength(RECIPIENTS);
      expect(sink.messages).toHaveLength(RECIPIENTS + extra);
      expect((await api('GET', `/v1/campaigns/${campaign.id}`)).total).toBe(RECIPIENTS);
      expect(second.hasExited()).toBe(false);
      console.info(
        `campaign-crash: ${databaseUrl === null ? 'embedded' : 'postgres'}; emails stored before the kill ${storedAtKill}`,
      );
    }));
});

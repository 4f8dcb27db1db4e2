// The common start of the process tests that send SMS: `herald start` handing its messages to a fake
// Twilio, and an SMS-enabled team with a full access key and money in its wallet.
import { databaseVariables, provisionTeam, startAdminHerald, type AdminHerald } from './admin-herald.ts';
import { FakeTwilio } from './fake-twilio.ts';
import { dropTestDatabases, testDatabaseUrl } from './fresh-database.ts';
import type { HeraldProcess } from './spawn.ts';

export interface SmsHerald extends AdminHerald {
  teamId: number | string;
  key: string;
}

export async function startSmsHerald(
  started: HeraldProcess[],
  o: { teamName: string; twilio: FakeTwilio; databaseUrl: string | null; topUpMinor: number; topUpReference: string },
): Promise<SmsHerald> {
  const herald = await startAdminHerald(started, {
    HERALD_SMS_PROVIDER: 'twilio',
    HERALD_TWILIO_ACCOUNT_SID: o.twilio.accountSid,
    HERALD_TWILIO_AUTH_TOKEN: o.twilio.authToken,
    HERALD_TWILIO_API_URL: o.twilio.url,
    ...databaseVariables(o.databaseUrl),
  });
  // The tests poll their messages every 20 ms.
  const { teamId, key } = await provisionTeam(herald.admin, { name: o.teamName, smsEnabled: true }, 1000);
  await herald.admin('POST', `/teams/${teamId}/wallet/top-ups`, {
    amountMinor: o.topUpMinor,
    reference: o.topUpReference,
  });
  return { ...herald, teamId, key };
}

/**
 * What an SMS process test runs beside Herald: a fake Twilio and, with DATABASE_URL, a fresh database
 * for this test only. close() (in afterEach, after cleanUpHeralds) ends whatever was started.
 */
export class SmsTestServices {
  #twilio: FakeTwilio | null = null;

  async start(databaseLabel: string): Promise<{ twilio: FakeTwilio; databaseUrl: string | null }> {
    this.#twilio = await FakeTwilio.start();
    return { twilio: this.#twilio, databaseUrl: await testDatabaseUrl(databaseLabel) };
  }

  async close(): Promise<void> {
    await this.#twilio?.close();
    this.#twilio = null;
    await dropTestDatabases();
  }
}

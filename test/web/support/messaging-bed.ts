// What the SMS, Codes and Inboxes browser tests add to the signed-in bed: a bed whose SMS go to a
// fake Twilio on loopback, and Herald's inbound SMTP listener beside it. The browser is browser.ts's
// launchBrowser.
import type { Config } from '../../../src/config.ts';
import { startListener, type Listener } from '../../inboxes/support.ts';
import { FakeTwilio } from '../../support/fake-twilio.ts';
import { startSignedInBed, type SignedInBed } from './signed-in.ts';

export interface SmsBed extends SignedInBed {
  twilio: FakeTwilio;
}

/** The signed-in bed handing its SMS to a fake Twilio, which posts signed status callbacks back. */
export async function startSmsBed(config: Partial<Config> = {}): Promise<SmsBed> {
  const twilio = await FakeTwilio.start();
  const bed = await startSignedInBed({
    ...config,
    smsProvider: 'twilio',
    twilio: { accountSid: twilio.accountSid, authToken: twilio.authToken, apiUrl: twilio.url },
  });
  return {
    ...bed,
    twilio,
    async close() {
      await bed.close();
      await twilio.close();
    },
  };
}

export interface InboxBed extends SignedInBed {
  listener: Listener;
}

/** The signed-in bed with Herald's inbound SMTP listener on a loopback port, started as `herald smtp` starts it. */
export async function startInboxBed(): Promise<InboxBed> {
  const bed = await startSignedInBed();
  const listener = await startListener(bed.t.deps);
  return {
    ...bed,
    listener,
    async close() {
      await listener.service.stop();
      await bed.close();
    },
  };
}

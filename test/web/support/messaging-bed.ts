// What the SMS, Codes and Inboxes browser tests add to the signed-in bed: a bed whose SMS go to a
// fake Twilio on loopback, Herald's inbound SMTP listener beside it, and a browser that sends the
// Origin header with its writes.
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import type { Config } from '../../../src/config.ts';
import { startListener, type Listener } from '../../inboxes/support.ts';
import { FakeTwilio } from '../../support/fake-twilio.ts';
import { launchBrowser } from './browser.ts';
import { startSignedInBed, type SignedInBed } from './signed-in.ts';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * launchBrowser, except that the packaged Chromium (used where the machine has none) is started
 * without the package's own flags: they include --disable-web-security, under which Chromium sends
 * no Origin header, and Herald refuses every session write without one (403 naming Origin).
 */
export async function launchBrowserWithOrigin(): Promise<Browser> {
  if (process.env.HERALD_TEST_CHROMIUM || SYSTEM_CHROMIUM.some((file) => fs.existsSync(file))) return launchBrowser();
  const packaged = (await import('@sparticuz/chromium')).default;
  const executable = await packaged.executablePath();
  process.env.HERALD_TEST_CHROMIUM = executable;
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await launchBrowser();
      } catch (error) {
        // Another test process may be unpacking the same executable at this moment.
        if (attempt >= 5 || !String(error).includes('ETXTBSY')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
      }
    }
  } finally {
    delete process.env.HERALD_TEST_CHROMIUM;
  }
}

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

// The Billing browser test's bed: startSignedInBed's listening Herald with its worker, except that it
// serves a copy of web/dist taken at start, so a rebuild of the dashboard while the test runs (other
// work in the same checkout) cannot take the page's hashed chunks away from under it; and a browser
// that sends the Origin header with its writes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Browser } from 'playwright-core';
import { buildApp } from '../../../src/app.ts';
import { buildDeps } from '../../../src/build-deps.ts';
import type { Config } from '../../../src/config.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { DEFAULT_DIST_DIR } from '../../../src/web/serve.ts';
import { createWorkerRunner } from '../../../src/worker.ts';
import { discardTestDataDir, testConfig } from '../../support/app.ts';
import { getTestDb } from '../../support/db.ts';
import { freePort } from '../../support/spawn.ts';
import { launchBrowser } from './browser.ts';
import type { SignedInBed } from './signed-in.ts';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export async function startBillingBed(config: Partial<Config>): Promise<SignedInBed> {
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-billing-dist-'));
  fs.cpSync(DEFAULT_DIST_DIR, distDir, { recursive: true });
  const port = await freePort();
  const clock = new ManualClock(new Date());
  const deps = await buildDeps(testConfig({ ...config, publicUrl: `http://127.0.0.1:${port}` }), {
    database: await getTestDb(),
    clock,
    logger: pino({ level: 'silent' }),
  });
  const app = await buildApp(deps, { dashboardDir: distDir });
  await app.listen({ port, host: '127.0.0.1' });
  const runner = createWorkerRunner(deps);
  await runner.start();
  const close = async () => {
    await runner.stop({ timeoutMs: 5_000 });
    await app.close();
    await deps.close();
    discardTestDataDir(deps.config);
    fs.rmSync(distDir, { recursive: true, force: true });
  };
  return { t: { app, deps, clock, close }, runner, base: deps.config.publicUrl, close };
}

/**
 * launchBrowser, except that the packaged Chromium (where the machine has none) starts without the
 * package's own flags: --disable-web-security makes it send no Origin, so Herald refuses every
 * session write (403 naming Origin), and --single-process crashes on the way to Stripe's origin.
 */
export async function launchBrowserWithOrigin(): Promise<Browser> {
  if (process.env.HERALD_TEST_CHROMIUM || SYSTEM_CHROMIUM.some((file) => fs.existsSync(file))) return launchBrowser();
  const packaged = (await import('@sparticuz/chromium')).default;
  process.env.HERALD_TEST_CHROMIUM = await packaged.executablePath();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await launchBrowser();
      } catch (error) {
        // Another test process may be unpacking the same executable at this moment: back off and retry.
        if (attempt >= 5 || !String(error).includes('ETXTBSY')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
      }
    }
  } finally {
    delete process.env.HERALD_TEST_CHROMIUM;
  }
}

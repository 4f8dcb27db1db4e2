// A real Chromium for the dashboard's browser tests, driven by playwright-core: the system's
// (/usr/bin/chromium, or HERALD_TEST_CHROMIUM), else the one the @sparticuz/chromium package ships,
// so that `npm install && npm test` runs on a machine without one. One browser per test file.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';
import { afterEach, expect } from 'vitest';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
// Headless, and quiet on a closed network: no background fetches, updates or sync.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  // Under LANG=C.UTF-8 Chromium's language is en-US@posix, which Intl refuses.
  '--lang=en-US',
];

async function executable(): Promise<{ path: string; args: string[] }> {
  // HERALD_TEST_CHROMIUM: a browser's path, or "packaged" for the npm package's even where one is installed.
  const configured = process.env.HERALD_TEST_CHROMIUM;
  if (configured && configured !== 'packaged') return { path: configured, args: [] };
  const system = configured ? undefined : SYSTEM_CHROMIUM.find((file) => fs.existsSync(file));
  if (system) return { path: system, args: [] };
  const packaged = (await import('@sparticuz/chromium')).default;
  packaged.setGraphicsMode = false;
  // --disable-web-security makes Chromium leave Origin off same-origin writes, which a session write
  // needs; --single-process crashes on a cross-origin navigation (the card checkout's).
  const dropped = (a: string) =>
    a.startsWith('--headless') || a === '--disable-web-security' || a.startsWith('--single-process');
  return { path: await packaged.executablePath(), args: packaged.args.filter((a) => !dropped(a)) };
}

export async function launchBrowser(): Promise<Browser> {
  const found = await executable();
  return chromium.launch({
    executablePath: found.path,
    headless: true,
    args: [...new Set([...ARGS, ...found.args])],
    timeout: 60_000,
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 375, height: 812 };

/** A fresh context (own cookies and storage) whose console CSP violations are collected. */
export async function newContext(browser: Browser): Promise<{ context: BrowserContext; cspViolations: string[] }> {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  // A loaded 2-core machine (the whole suite runs a dozen browser files beside the rest): waits are
  // generous, and each wait is on a signal, never a sleep.
  context.setDefaultTimeout(45_000);
  context.setDefaultNavigationTimeout(45_000);
  const cspViolations: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      cspViolations.push(message.text());
  });
  return { context, cspViolations };
}

/** Where screenshots go: test-artifacts/dashboard/ (git-ignored). */
export const ARTIFACTS = path.join(import.meta.dirname, '..', '..', '..', 'test-artifacts', 'dashboard');

/** The page at 1280 and 375 px wide, full height, then back to the desktop size. */
export async function screenshots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const [label, size] of [
    ['1280', DESKTOP],
    ['375', MOBILE],
  ] as const) {
    await page.setViewportSize(size);
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(null)))');
    await page.screenshot({
      path: path.join(ARTIFACTS, `${name}-${label}.png`),
      fullPage: true,
      animations: 'disabled',
    });
  }
  await page.setViewportSize(DESKTOP);
}

// axe-core's bundle (550 KB), evaluated once per document: the @axe-core/playwright wrapper evaluated
// it two or three times per check and finished each in a new blank page, twice the rules' own cost.
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
type InPage = { axe: { run(context: string, options: RunOptions): Promise<AxeResults> } };

/** axe-core on the page as it is: no serious or critical violation. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE_SOURCE);
  // Every frame the dashboard has is the email preview: the user's mail, sandboxed without scripts,
  // where axe cannot run. So frames are left out and nothing waits on one.
  const violations = await page.evaluate(async () => {
    const { axe } = globalThis as unknown as InPage;
    const found = await axe.run('html', { iframes: false, resultTypes: ['violations'] });
    return found.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      targets: nodes.map((n) => n.target.join(' ')),
    }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.targets.join(', ')}`);
  expect(summary, `${name}: axe violations`).toEqual([]);
}

/** Accessibility at both widths and a screenshot of each: every page the tests visit goes through this. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await expectAccessible(page, `${name} (1280 px)`);
  await page.setViewportSize(MOBILE);
  await expectAccessible(page, `${name} (375 px)`);
  await page.setViewportSize(DESKTOP);
  await screenshots(page, name);
}

/**
 * On a failed test, what the page showed: its URL and text on stderr (CI's output keeps it) and a
 * screenshot in test-artifacts/dashboard/failed-<test>.png. A wait that times out says only what it waited for.
 */
export function reportPageOnFailure(current: () => Page | undefined): void {
  afterEach(async (context) => {
    const page = current();
    if (context.task.result?.state !== 'fail' || !page || page.isClosed()) return;
    const text = await page
      .locator('body')
      .innerText({ timeout: 5_000 })
      .catch((error: unknown) => `(no text: ${String(error)})`);
    process.stderr.write(`\n${context.task.name}: the page at failure, ${page.url()}\n${text.slice(0, 3_000)}\n`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = context.task.name.replace(/[^\w-]+/g, '-').slice(0, 80);
    await page.screenshot({ path: path.join(ARTIFACTS, `failed-${file}.png`), fullPage: true }).catch(() => {});
  });
}

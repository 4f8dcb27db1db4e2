// The dashboard in a real Chromium against a real Herald (listening on loopback, serving web/dist):
// it loads under its CSP with no violation, client routes reload into the app while the API's
// unknown paths stay JSON 404s, and the sign-in page is accessible at 1280 and 375 px.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createListeningTestApp, type TestApp } from '../support/app.ts';
import { checkPage, launchBrowser, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
// With isolate: false the next file of this worker would inherit them.
afterAll(() => vi.resetConfig());

let t: TestApp;
let browser: Browser;
let context: BrowserContext;
let cspViolations: string[];
let page: Page;
reportPageOnFailure(() => page);
let base: string;

beforeAll(async () => {
  ensureDashboardBuilt();
  [t, browser] = await Promise.all([createListeningTestApp({}), launchBrowser()]);
  base = t.deps.config.publicUrl;
  ({ context, cspViolations } = await newContext(browser));
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the dashboard in a browser', () => {
  it('loads under its Content-Security-Policy, without a violation, and sends a signed-out visitor to sign in', async () => {
    const response = await page.goto(`${base}/`);
    expect(response!.status()).toBe(200);
    const csp = response!.headers()['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'$|script-src 'self' 'sha256-[A-Za-z0-9+/=]+';/);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/sign-in');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    // The theme script ran before paint: the class is set one way or the other, and no CSP error was logged.
    expect(await page.evaluate('document.documentElement.style.colorScheme')).toMatch(/^(light|dark)$/);
    expect(cspViolations).toEqual([]);
  });

  it('reloads a client route into the app, keeping where the visitor was going', async () => {
    const response = await page.goto(`${base}/emails?since=7d`);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-type']).toMatch(/^text\/html/);
    await expect.poll(() => page.url()).toBe(`${base}/sign-in?next=${encodeURIComponent('/emails?since=7d')}`);
  });

  it('leaves the API its JSON 404s', async () => {
    const response = await page.goto(`${base}/api/v1/no-such-route`);
    expect(response!.status()).toBe(404);
    expect(response!.headers()['content-type']).toMatch(/^application\/json/);
    expect(await response!.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('shows an accessible sign-in page at 1280 and 375 px, in light and dark', async () => {
    await page.goto(`${base}/sign-in`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await checkPage(page, 'sign-in');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await page.evaluate('document.documentElement.classList.contains("dark")')).toBe(true);
    await checkPage(page, 'sign-in-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(cspViolations).toEqual([]);
  });

  it('answers any address with "Check your inbox" and a code field', async () => {
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('Email').fill('nobody@example.test');
    await page.getByRole('button', { name: 'Continue with email' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
    const code = page.getByLabel('6-digit code');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    await code.fill('12ab34');
    expect(await code.inputValue()).toBe('1234');
    await checkPage(page, 'sign-in-code');
  });

  it('explains a sign-in link that does not work, with a way to ask for another', async () => {
    await page.goto(`${base}/sign-in/not-a-real-token`);
    await page.getByRole('heading', { level: 1, name: 'Signing in' }).waitFor();
    await page.getByRole('alert').waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    // The token is gone from the address bar as soon as the page read it.
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await checkPage(page, 'sign-in-link');
    expect(cspViolations).toEqual([]);
  });
});

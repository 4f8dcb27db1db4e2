// A member's day in the dashboard, in a real Chromium against a real Herald with its worker: sign in
// by the link read from the outbox, Overview, a test email sent from the dashboard and its detail
// filling in, the email log, a domain added and its records, every page accessible (axe) and
// photographed at 1280 and 375 px, sign out. Then the boundaries: another team's email is not found,
// and a form posted from another origin is refused.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkPage, DESKTOP, launchBrowser, MOBILE, newContext, reportPageOnFailure } from './support/browser.ts';
import { adminRequest } from '../support/factory.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import {
  cookieNames,
  createMemberTeam,
  signIn,
  startSignedInBed,
  type MemberTeam,
  type SignedInBed,
} from './support/signed-in.ts';
import { otherPages } from './support/pages.ts';

let bed: SignedInBed;
let browser: Browser;
let context: BrowserContext;
let cspViolations: string[];
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser] = await Promise.all([startSignedInBed(), launchBrowser()]);
  team = await createMemberTeam(bed);
  ({ context, cspViolations } = await newContext(browser));
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await bed?.close();
});

// Browser steps on a loaded 2-core machine: each test gets the time it needs, every wait on a signal.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
// With isolate: false the next file of this worker would inherit them.
afterAll(() => vi.resetConfig());

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });

describe('a member in the dashboard', () => {
  it('signs in by the link from the mail and lands on Overview', async () => {
    await page.goto(`${bed.base}/emails`);
    await poll(() => new URL(page.url()).pathname).toBe('/sign-in');
    await signIn(bed, page, team.ownerEmail);
    const cookie = (await context.cookies()).find((c) => c.name === 'herald_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    await page.getByText('Set up Herald').waitFor();
    await checkPage(page, 'overview');
  });

  it('sends a test email from Overview and watches its detail fill in', async () => {
    await page.goto(`${bed.base}/`);
    await page.getByRole('button', { name: 'Send test email' }).click();
    await h1('Your first email from Herald').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/emails\/[\w-]+$/);
    bed.runner.wake();
    const events = page.getByRole('region', { name: 'Events' });
    await events.getByText('Sent', { exact: true }).waitFor({ timeout: 30_000 });
    await poll(() => page.getByRole('button', { name: 'Copy email id' }).count()).toBe(1);
    // The preview is a sandboxed frame: no scripts, no same-origin.
    const frame = page.locator('iframe[title="Email preview"]');
    expect(await frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    await poll(() => frame.contentFrame().getByText('It works.').count()).toBe(1);
    await checkPage(page, 'email-detail');
    await page.getByRole('tab', { name: 'JSON' }).click();
    await poll(() => new URL(page.url()).searchParams.get('tab')).toBe('json');
    await page.getByRole('tabpanel').getByText('"emailEvents"').waitFor();
  });

  it('lists the email in the log and opens it from there', async () => {
    await page.goto(`${bed.base}/emails`);
    await h1('Emails').waitFor();
    const table = page.getByRole('table', { name: 'Emails' });
    const link = table.getByRole('link', { name: team.ownerEmail });
    await link.first().waitFor();
    await checkPage(page, 'emails');
    await page.getByLabel('Date').selectOption('24h');
    await poll(() => new URL(page.url()).searchParams.get('since')).toBe('24h');
    await page.getByRole('button', { name: /Remove filter/ }).waitFor();
    await link.first().click();
    await h1('Your first email from Herald').waitFor();
    await page.goBack();
    await poll(() => new URL(page.url()).searchParams.get('since')).toBe('24h');
  });

  it('adds a domain and sees the records to publish, each with a copy button', async () => {
    const name = `mail-${team.id}.example.test`;
    await page.goto(`${bed.base}/domains`);
    await h1('Domains').waitFor();
    await checkPage(page, 'domains');
    await page.getByLabel('Domain name').fill(name);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await h1(name).waitFor();
    const records = page.getByRole('table', { name: 'DNS records' });
    await records.getByRole('row').nth(1).waitFor();
    expect(await records.getByRole('row').count()).toBeGreaterThanOrEqual(4);
    await records
      .getByText(/^v=DKIM1/)
      .first()
      .waitFor();
    expect(await page.getByRole('button', { name: /^Copy TXT record value/ }).count()).toBeGreaterThanOrEqual(2);
    await checkPage(page, 'domain-detail');
    // Verify now is a write with the session (CSRF token, Origin); the page polls while it checks.
    const verifyNow = page.getByRole('button', { name: 'Verify now' });
    await verifyNow.waitFor();
    const [verify] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/verify')),
      verifyNow.click(),
    ]);
    expect(verify.status()).toBe(200);
    expect(verify.request().headers()['x-csrf-token']).toBeTruthy();
    bed.runner.wake();
    await verifyNow.waitFor({ timeout: 30_000 });
    await poll(() => verifyNow.isEnabled()).toBe(true);
  });

  it('shows every other page under its name, and a not-found page for an unknown address', async () => {
    for (const { path, title } of otherPages) {
      await page.goto(`${bed.base}/${path}`);
      await h1(title).waitFor();
    }
    await page.goto(`${bed.base}/no/such/page`);
    await h1('Not found').waitFor();
    await checkPage(page, 'not-found');
  });

  it('opens the navigation in a drawer under 768 px, and closes it on the way to a page', async () => {
    await page.setViewportSize(MOBILE);
    try {
      await page.goto(`${bed.base}/`);
      await h1('Overview').waitFor();
      await page.getByRole('button', { name: 'Open navigation' }).click();
      const drawer = page.getByRole('dialog', { name: 'Navigation' });
      await drawer.getByRole('link', { name: 'Domains' }).click();
      await h1('Domains').waitFor();
      await drawer.waitFor({ state: 'hidden' });
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('switches to dark from the user menu, before paint on the next load, and stays accessible', async () => {
    await page.goto(`${bed.base}/`);
    await h1('Overview').waitFor();
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    expect(await page.evaluate('document.documentElement.classList.contains("dark")')).toBe(true);
    await page.reload();
    await h1('Overview').waitFor();
    expect(await page.evaluate('document.documentElement.style.colorScheme')).toBe('dark');
    await page.getByText('Set up Herald').waitFor();
    await checkPage(page, 'overview-dark');
    await page.goto(`${bed.base}/emails`);
    await page.getByRole('table', { name: 'Emails' }).getByRole('link').first().waitFor();
    await checkPage(page, 'emails-dark');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
  });

  it('signs out', async () => {
    await page.goto(`${bed.base}/`);
    await h1('Overview').waitFor();
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await h1('Sign in').waitFor();
    await page.goto(`${bed.base}/emails`);
    await poll(() => new URL(page.url()).pathname).toBe('/sign-in');
    expect(cspViolations).toEqual([]);
  });
});

describe('the boundaries of a session', () => {
  let other: BrowserContext;
  let otherPage: Page;

  beforeAll(async () => {
    ({ context: other } = await newContext(browser));
    otherPage = await other.newPage();
    await signIn(bed, otherPage, team.ownerEmail);
    expect(await cookieNames(other)).toContain('herald_session');
  });
  afterAll(async () => other?.close());

  it("never shows another team's email: the not-found page, as for a missing one", async () => {
    const teamB = await createMemberTeam(bed);
    const sent = await bed.t.app.inject({
      method: 'POST',
      url: '/api/v1/emails',
      headers: { authorization: `Bearer ${teamB.key}` },
      payload: {
        from: `hello@${bed.t.deps.config.mailDomain}`,
        to: teamB.ownerEmail,
        subject: 'Team B only',
        text: 'Private to team B',
      },
    });
    expect(sent.statusCode).toBe(200);
    const { emailId } = sent.json() as { emailId: string };
    await otherPage.goto(`${bed.base}/emails/${emailId}`);
    await otherPage.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
    expect(await otherPage.getByText('Team B only').count()).toBe(0);
    await otherPage.getByRole('link', { name: 'Back to Emails' }).waitFor();
  });

  it('switches to another team of the member: X-Herald-Team on every request, kept across reloads', async () => {
    const teamC = await createMemberTeam(bed);
    await adminRequest(bed.t.app, 'POST', `/teams/${teamC.id}/members`, { email: team.ownerEmail, role: 'MEMBER' });
    const sent = await bed.t.app.inject({
      method: 'POST',
      url: '/api/v1/emails',
      headers: { authorization: `Bearer ${teamC.key}` },
      payload: {
        from: `hello@${bed.t.deps.config.mailDomain}`,
        to: team.ownerEmail,
        subject: 'Team C news',
        text: 'Hi',
      },
    });
    expect(sent.statusCode).toBe(200);
    const { emailId } = sent.json() as { emailId: string };
    await otherPage.goto(`${bed.base}/emails/${emailId}`);
    await otherPage.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
    const teamHeaders: string[] = [];
    otherPage.on('request', (r) => {
      if (r.url().includes('/api/v1/')) teamHeaders.push(r.headers()['x-herald-team'] ?? '');
    });
    await otherPage.getByRole('button', { name: `Team: ${team.name}. Switch team` }).click();
    await otherPage.getByRole('menuitem', { name: new RegExp(`^${teamC.name}\\b`) }).click();
    await otherPage.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await otherPage.getByRole('button', { name: `Team: ${teamC.name}. Switch team` }).waitFor();
    await otherPage.goto(`${bed.base}/emails/${emailId}`);
    await otherPage.getByRole('heading', { level: 1, name: 'Team C news' }).waitFor();
    expect(new Set(teamHeaders.slice(-3))).toEqual(new Set([String(teamC.id)]));
  });

  it('sends the member to sign in when the session ends under the page, keeping where they were going', async () => {
    await otherPage.goto(`${bed.base}/`);
    await otherPage.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const cookies = await other.cookies();
    await other.clearCookies();
    await otherPage.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Emails' }).click();
    await poll(() => otherPage.url()).toBe(`${bed.base}/sign-in?next=${encodeURIComponent('/emails')}`);
    await otherPage.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await other.addCookies(cookies);
  });

  it('refuses a form posted to the API from a page of another origin (403)', async () => {
    // Same site (127.0.0.1), another port: the browser sends the Lax cookie with the post.
    const evil = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        `<!doctype html><title>Not Herald</title><form method="post" enctype="text/plain" action="${bed.base}/api/v1/domains">` +
          `<input name='{"name":"evil.example.test","region":"x","pad":"' value='"}'><button>Go</button></form>`,
      );
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const port = (evil.address() as AddressInfo).port;
      await otherPage.goto(`http://127.0.0.1:${port}/`);
      const [response] = await Promise.all([
        otherPage.waitForResponse((r) => r.url() === `${bed.base}/api/v1/domains`),
        otherPage.getByRole('button', { name: 'Go' }).click(),
      ]);
      expect(response.request().headers()['cookie'] ?? (await response.request().allHeaders())['cookie']).toMatch(
        /herald_session=/,
      );
      expect(response.status()).toBe(403);
      expect(await response.text()).toMatch(/Origin/);
      const domains = await bed.t.app.inject({
        method: 'GET',
        url: '/api/v1/domains',
        headers: { authorization: `Bearer ${team.key}` },
      });
      expect(JSON.stringify(domains.json())).not.toContain('evil.example.test');
    } finally {
      await new Promise<void>((resolve) => evil.close(() => resolve()));
    }
  });
});

// The email log in a real Chromium against a real Herald with its worker: 117 emails sent through
// the API from the built-in domain to the simulator (delivered, bounced, one scheduled), paged by
// cursor (Older, Older, Newer, Newer: every email once, the URL holding the cursor), filtered by
// status and searched (both in the URL, the chips removable), an empty result, and a scheduled
// email rescheduled (the API's field error beside the field) and cancelled from its detail. Every
// page accessible (axe) and photographed at 1280 and 375 px.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '../support/factory.ts';
import { checkPage, launchBrowser, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import {
  createMemberTeam,
  signIn,
  signInCodeFor,
  signInMailIds,
  startSignedInBed,
  waitUntil,
  type MemberTeam,
  type SignedInBed,
} from './support/signed-in.ts';

let bed: SignedInBed;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;
const DELIVERED = 111;
const BOUNCED = 5;

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });
afterAll(() => vi.resetConfig());

/** GET /api/v1/emails as the team's key: the seeding's own check, not the page's. */
async function apiCount(query: string): Promise<number> {
  const response = await fetch(`${bed.base}/api/v1/emails?limit=1&${query}`, { headers: bearer(team.key) });
  return ((await response.json()) as { count: number }).count;
}

async function send(emails: object[]): Promise<void> {
  const response = await fetch(`${bed.base}/api/v1/emails/batch`, {
    method: 'POST',
    headers: { ...bearer(team.key), 'content-type': 'application/json' },
    body: JSON.stringify(emails),
  });
  expect(response.status, await response.text()).toBe(200);
}

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser] = await Promise.all([startSignedInBed(), launchBrowser()]);
  team = await createMemberTeam(bed);
  const { context } = await newContext(browser);
  page = await context.newPage();
  await signIn(bed, page, team.ownerEmail);
});

afterAll(async () => {
  await browser?.close();
  await bed?.close();
});

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const table = () => page.getByRole('table', { name: 'Emails' });
/** The rows' links (one a row; skeleton rows are hidden from the accessibility tree). */
const rowLinks = (): Locator => table().getByRole('link');
const param = (name: string) => new URL(page.url()).searchParams.getAll(name);
const hrefs = async () => rowLinks().evaluateAll((links) => links.map((a) => a.getAttribute('href')));

describe('the email log', () => {
  it('teaches the first send when the team has sent nothing', async () => {
    await page.goto(`${bed.base}/emails`);
    await h1('Emails').waitFor();
    await page.getByText('No email sent yet.').waitFor();
    await checkPage(page, 'emails-empty');
  });

  it('pages through every email by cursor, 50 rows a page, the cursor in the URL', async () => {
    const from = `Herald <hello@${bed.t.deps.config.mailDomain}>`;
    const at = (kind: string, i: number) => `${kind}+log${i}@simulator.herald.test`;
    const later = new Date(Date.now() + 24 * 3600_000).toISOString();
    await send(
      Array.from({ length: 100 }, (_, i) => ({
        from,
        to: at('delivered', i),
        subject: `Order ${i} shipped`,
        text: 'x',
      })),
    );
    await send([
      ...Array.from({ length: DELIVERED - 101 }, (_, i) => ({
        from,
        to: at('delivered', 100 + i),
        subject: `Order ${100 + i} shipped`,
        text: 'x',
      })),
      { from, to: at('delivered', 999), subject: 'Invoice 7781 overdue', text: 'x' },
      ...Array.from({ length: BOUNCED }, (_, i) => ({ from, to: at('bounced', i), subject: `Bounce ${i}`, text: 'x' })),
      { from, to: at('delivered', 1000), subject: 'Scheduled reminder', text: 'x', scheduledAt: later },
    ]);
    await waitUntil(async () => {
      bed.runner.wake();
      const done = (await apiCount('status=DELIVERED')) === DELIVERED && (await apiCount('status=BOUNCED')) === BOUNCED;
      return done ? true : null;
    }, 'the worker to deliver and bounce the emails');

    // index.html's inline script reads the session and this first page before the entry runs; the
    // bundle takes both rather than asking again (the next page, by cursor, is prefetched once idle).
    const reads: string[] = [];
    const onRequest = (r: { url(): string }) => {
      const { pathname, searchParams } = new URL(r.url());
      if (pathname === '/api/v1/session' || (pathname === '/api/v1/emails' && !searchParams.has('cursor')))
        reads.push(pathname);
    };
    page.on('request', onRequest);
    await page.goto(`${bed.base}/emails`);
    await poll(() => rowLinks().count()).toBe(50);
    page.off('request', onRequest);
    expect(reads.sort()).toEqual(['/api/v1/emails', '/api/v1/session']);
    await checkPage(page, 'emails');
    const newer = page.getByRole('button', { name: 'Newer' });
    const older = page.getByRole('button', { name: 'Older' });
    expect(await newer.isDisabled()).toBe(true);

    const seen: (string | null)[][] = [await hrefs()];
    await older.click();
    await poll(() => param('cursor').length).toBe(1);
    await poll(async () => (await hrefs())[0]).not.toBe(seen[0]![0]);
    await poll(() => rowLinks().count()).toBe(50);
    seen.push(await hrefs());
    await older.click();
    await poll(() => rowLinks().count()).toBe(DELIVERED + BOUNCED + 1 - 100);
    seen.push(await hrefs());
    expect(await older.isDisabled()).toBe(true);
    const all = seen.flat();
    expect(new Set(all).size).toBe(DELIVERED + BOUNCED + 1);

    await newer.click();
    await poll(async () => (await hrefs()).join()).toBe(seen[1]!.join());
    await newer.click();
    await poll(async () => (await hrefs()).join()).toBe(seen[0]!.join());
    await poll(() => newer.isDisabled()).toBe(true);
    // Back goes through the pages as they were visited.
    await page.goBack();
    await poll(async () => (await hrefs()).join()).toBe(seen[1]!.join());
  });

  it('shows the first page after a sign-in by code that began on the email log', async () => {
    // Signed out, the page's early read of the list is refused; the list after sign-in is read again.
    const { context } = await newContext(browser);
    const fresh = await context.newPage();
    await fresh.goto(`${bed.base}/emails`);
    await fresh.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    const seen = await signInMailIds(bed, team.ownerEmail);
    await fresh.getByLabel('Email').fill(team.ownerEmail);
    await fresh.getByRole('button', { name: 'Continue with email' }).click();
    await fresh.getByLabel('6-digit code').fill(await signInCodeFor(bed, team.ownerEmail, seen));
    await fresh.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => new URL(fresh.url()).pathname).toBe('/emails');
    await poll(() => fresh.getByRole('table', { name: 'Emails' }).getByRole('link').count()).toBe(50);
    await context.close();
  });

  it('filters by status and searches, both in the URL, each a removable chip', async () => {
    await page.goto(`${bed.base}/emails`);
    await poll(() => rowLinks().count()).toBe(50);
    await page.getByLabel('Status').selectOption('BOUNCED');
    await poll(() => param('status')).toEqual(['BOUNCED']);
    await poll(() => rowLinks().count()).toBe(BOUNCED);
    expect(await table().getByText('Bounced', { exact: true }).count()).toBe(BOUNCED);
    expect(await page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    await checkPage(page, 'emails-bounced');
    await page.getByRole('button', { name: 'Remove filter Status: Bounced' }).click();
    await poll(() => param('status')).toEqual([]);
    await poll(() => rowLinks().count()).toBe(50);

    // `/` focuses the search box; the search waits for a pause in typing.
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Search by address or subject' });
    await poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe(
      'Search by address or subject',
    );
    await page.keyboard.type('INVOICE 7781');
    await poll(() => param('q')).toEqual(['INVOICE 7781']);
    await poll(() => rowLinks().count()).toBe(1);
    await table().getByText('Invoice 7781 overdue').waitFor();
    // A whole address finds the emails sent to it.
    await search.fill('bounced+log3@simulator.herald.test');
    await poll(() => rowLinks().count()).toBe(1);
    await table().getByText('Bounce 3').waitFor();
    await checkPage(page, 'emails-search');

    await search.fill('nothing like this');
    await page.getByText('No email matches these filters.').waitFor();
    await checkPage(page, 'emails-no-match');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await poll(() => param('q')).toEqual([]);
    await poll(() => rowLinks().count()).toBe(50);
    await poll(() => search.inputValue()).toBe('');

    // A pasted link restores the view: the status and the search together.
    await page.goto(`${bed.base}/emails?status=DELIVERED&status=BOUNCED&q=order%2010`);
    await poll(() => rowLinks().count()).toBe(11);
    await page.getByRole('button', { name: 'Remove filter Status: Delivered' }).waitFor();
    await page.getByRole('button', { name: 'Remove filter Search: “order 10”' }).waitFor();
  });

  it('reschedules and cancels a scheduled email from its detail', async () => {
    await page.goto(`${bed.base}/emails?status=SCHEDULED`);
    await poll(() => rowLinks().count()).toBe(1);
    await rowLinks().first().click();
    await h1('Scheduled reminder').waitFor();
    await page.getByRole('button', { name: 'Reschedule' }).click();
    const form = page.getByRole('dialog', { name: 'Reschedule email' });
    await form.getByText(/^Your time zone: /).waitFor();
    // An empty time: the API's error sits beside the field.
    await form.getByLabel('Send at').fill('');
    await form.getByRole('button', { name: 'Reschedule' }).click();
    await poll(() => form.getByLabel('Send at').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'email-reschedule');
    await form.getByLabel('Send at').fill('2099-01-02T03:04');
    await form.getByRole('button', { name: 'Reschedule' }).click();
    await form.waitFor({ state: 'hidden' });
    await page.getByText('Email rescheduled').waitFor();

    await page.getByRole('button', { name: 'Cancel email' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel “Scheduled reminder”?' });
    await confirm.getByText(/will not be sent/).waitFor();
    await checkPage(page, 'email-cancel');
    await confirm.getByRole('button', { name: 'Cancel email' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('main').getByText('Cancelled', { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Reschedule' }).count()).toBe(0);
    expect(await apiCount('status=CANCELLED')).toBe(1);
  });
});

// Campaigns in a real Chromium against a real Herald with its worker (log transport): a verified
// domain and a book of three contacts made through the API; a campaign created in the dialog (the
// API's field errors beside the fields), composed with its live preview, a test copy sent and found
// in the outbox, sent now and watched until Sent with its statistics and recipients; a scheduled
// campaign paused and resumed; the list's filters in the URL; another team's campaign not found.
// Every page accessible (axe) and photographed at 1280 and 375 px.
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkPage, launchBrowser, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import {
  createMemberTeam,
  outboxTo,
  signIn,
  startSignedInBed,
  type BedWithDns,
  type MemberTeam,
} from './support/signed-in.ts';
import { apiCall, bookWithContacts, verifiedDomainName } from './campaigns-bed.ts';

let bed: BedWithDns;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;
let domain: string;
let bookId: string;
let campaignUrl: string;

const NAME = 'November news';
const BODY = '<p>Hello {{firstName}}</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>';

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser] = await Promise.all([startSignedInBed(), launchBrowser()]);
  team = await createMemberTeam(bed);
  domain = await verifiedDomainName(bed, team.key);
  const readers = [1, 2, 3].map((n) => `reader${n}-${team.id}@example.test`);
  bookId = await bookWithContacts(bed, team.key, 'Readers', readers);
  const { context } = await newContext(browser);
  page = await context.newPage();
  await signIn(bed, page, team.ownerEmail);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await bed?.close();
});

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });
afterAll(() => vi.resetConfig());

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000, interval: 500 });
const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const param = (name: string) => new URL(page.url()).searchParams.get(name);

describe('a campaign from draft to sent', () => {
  it('starts empty, then creates a draft in the dialog, with the API’s errors beside the fields', async () => {
    await page.goto(`${bed.base}/campaigns`);
    await h1('Campaigns').waitFor();
    await page.getByText('No campaigns yet').waitFor();
    await checkPage(page, 'campaigns-empty');
    await page.getByRole('button', { name: 'New campaign' }).click();
    const form = page.getByRole('dialog', { name: 'New campaign' });
    await form.getByLabel('Name').fill(NAME);
    await form.getByLabel('From').fill('news@not-verified.example.com');
    await form.getByLabel('Subject').fill('What is new');
    await form.getByLabel('Contact book').selectOption(bookId);
    await form.getByText('3 contacts in Readers', { exact: false }).waitFor();
    await form.getByRole('button', { name: 'Create campaign' }).click();
    await form.getByText(/not a verified sending domain/).waitFor();
    expect(await form.getByLabel('From').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'campaign-create');
    await form.getByLabel('From').fill(`News <news@${domain}>`);
    await form.getByRole('button', { name: 'Create campaign' }).click();
    await h1(NAME).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/campaigns\/cmp_/);
    campaignUrl = page.url();
    await page.getByRole('list', { name: 'Steps' }).waitFor();
  });

  it('composes the content with a live preview, saves it and sends a test found in the outbox', async () => {
    const html = page.getByLabel('HTML', { exact: true });
    await html.fill('<p>Hello {{firstName}}</p>');
    // No unsubscribe link yet: said, with a button that adds one.
    await page.getByRole('button', { name: 'Add an unsubscribe link' }).click();
    expect(await html.inputValue()).toContain('{{unsubscribeUrl}}');
    const preview = page.locator('iframe[title="Email preview"]');
    expect(await preview.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    await poll(() => preview.contentFrame().getByText('Hello {{firstName}}').count()).toBe(1);
    await page.getByLabel('Preview text (optional)').fill('All the news in brief');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('All changes saved').waitFor();
    const saved = await apiCall<{ html: string; previewText: string }>(
      bed,
      team.key,
      'GET',
      `/v1/campaigns/${new URL(campaignUrl).pathname.split('/').pop()}`,
    );
    expect(saved).toMatchObject({ previewText: 'All the news in brief' });
    expect(saved.html).toContain('{{unsubscribeUrl}}');
    await checkPage(page, 'campaign-compose');

    await page.getByRole('button', { name: `Send a test to ${team.ownerEmail}` }).click();
    await page.getByText(`Test sent to ${team.ownerEmail}.`).waitFor();
    await poll(async () => {
      bed.runner.wake();
      for (const mail of await outboxTo(bed, team.ownerEmail)) {
        if ((await simpleParser(mail.raw)).subject === '[Test] What is new') return true;
      }
      return false;
    }).toBe(true);
    await page.getByRole('region', { name: '5. Test send' }).getByLabel('done').waitFor();
  });

  it('sends it now and watches it reach Sent, with its statistics and recipients', async () => {
    await page.getByRole('button', { name: 'Schedule…' }).click();
    const dialog = page.getByRole('dialog', { name: `Schedule ${NAME}?` });
    expect(await dialog.getByLabel('Now').isChecked()).toBe(true);
    await checkPage(page, 'campaign-schedule');
    await dialog.getByRole('button', { name: 'Send now' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const status = page.getByRole('status').filter({ hasText: 'every recipient’s email is on its way' });
    await poll(async () => {
      bed.runner.wake();
      return status.count();
    }).toBe(1);
    const stats = page.getByRole('region', { name: 'Statistics' });
    await poll(async () => {
      bed.runner.wake();
      return stats.getByRole('progressbar', { name: 'Sending progress' }).getAttribute('aria-valuetext');
    }).toBe('3 of 3 sent');
    expect(await stats.getByText('Recipients').locator('..').textContent()).toContain('3');
    await page.getByRole('region', { name: 'Details' }).getByText(`News <news@${domain}>`).waitFor();
    await checkPage(page, 'campaign-sent');

    await page.getByRole('tab', { name: 'Recipients' }).click();
    await poll(() => param('tab')).toBe('recipients');
    const table = page.getByRole('table', { name: 'Recipients' });
    await poll(() => table.getByRole('link').count()).toBe(3);
    await table.getByRole('link', { name: `reader1-${team.id}@example.test` }).waitFor();
    await checkPage(page, 'campaign-recipients');
    await page.getByLabel('Outcome').selectOption('BOUNCED');
    await poll(() => param('status')).toBe('BOUNCED');
    await page.getByText('No recipient is bounced.').waitFor();
    await page.getByLabel('Outcome').selectOption('SENT');
    await poll(() => table.getByRole('link').count()).toBe(3);

    await page.getByRole('tab', { name: 'Content' }).click();
    await poll(() =>
      page.locator('iframe[title="Email preview"]').contentFrame().getByText('Unsubscribe').count(),
    ).toBe(1);
  });
});

describe('a scheduled campaign and the list', () => {
  it('pauses and resumes a scheduled campaign', async () => {
    const later = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    const scheduled = await apiCall<{ id: string }>(bed, team.key, 'POST', '/v1/campaigns', {
      name: 'December digest',
      from: `news@${domain}`,
      subject: 'The year in review',
      contactBookId: bookId,
      html: BODY,
      scheduledAt: later,
    });
    await page.goto(`${bed.base}/campaigns/${scheduled.id}`);
    await h1('December digest').waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Starts / })
      .waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('status').filter({ hasText: 'Paused by hand' }).waitFor();
    await page.getByTitle('PAUSED').waitFor();
    await checkPage(page, 'campaign-paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByTitle('SCHEDULED').waitFor();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await checkPage(page, 'campaign-scheduled');
    // Dark mode: the same page, accessible too.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.getByRole('tab', { name: 'Content' }).click();
    await page.locator('iframe[title="Email preview"]').waitFor();
    await checkPage(page, 'campaign-scheduled-dark');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
  });

  it('filters the list by status and search, both in the URL', async () => {
    await page.goto(`${bed.base}/campaigns`);
    const table = page.getByRole('table', { name: 'Campaigns' });
    await table.getByRole('link', { name: NAME }).waitFor();
    await table.getByRole('link', { name: 'December digest' }).waitFor();
    await checkPage(page, 'campaigns');
    await page.getByLabel('Status', { exact: true }).selectOption('SENT');
    await poll(() => param('status')).toBe('SENT');
    await poll(() => table.getByRole('link').count()).toBe(1);
    await table.getByRole('link', { name: NAME }).waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Search campaigns').fill('year in review');
    await poll(() => param('search')).toBe('year in review');
    await poll(() => table.getByRole('link').count()).toBe(1);
    await table.getByRole('link', { name: 'December digest' }).waitFor();
    // A reload (or a pasted link) restores the search from the URL.
    await page.reload();
    expect(await page.getByLabel('Search campaigns').inputValue()).toBe('year in review');
  });

  it('shows another team’s campaign, and an unknown id, as not found', async () => {
    const other = await createMemberTeam(bed);
    const otherDomain = await verifiedDomainName(bed, other.key);
    const otherBook = await bookWithContacts(bed, other.key, 'Theirs', [`them-${other.id}@example.test`]);
    const theirs = await apiCall<{ id: string }>(bed, other.key, 'POST', '/v1/campaigns', {
      name: 'Their secret plan',
      from: `news@${otherDomain}`,
      subject: 'Not for you',
      contactBookId: otherBook,
    });
    for (const id of [theirs.id, 'cmp_nope']) {
      await page.goto(`${bed.base}/campaigns/${id}`);
      await h1('Not found').waitFor();
      expect(await page.getByText('Their secret plan').count()).toBe(0);
    }
    await checkPage(page, 'campaign-not-found');
  });
});

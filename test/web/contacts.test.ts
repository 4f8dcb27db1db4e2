// Contacts in a real Chromium against a real Herald with its worker: a book created, a contact added
// in the side sheet (the API's field error beside the field), a CSV of 2,500 rows with 3 bad ones
// imported in batches with a progress bar, rejected rows listed and downloaded, search and paging,
// bulk delete, double opt-in saved (a confirmation mail then sent), the book's deletion refused while
// an active journey uses it, then done; another team's book not found. checkPage on every page.
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uniqueDomain } from '../domains/support.ts';
import { createTeam } from '../support/factory.ts';
import { checkPage, launchBrowser, newContext, reportPageOnFailure } from './support/browser.ts';
import { apiClient, verifiedDomain } from './support/api-seeds.ts';
import { peopleCsv } from './support/contacts-bed.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import {
  createMemberTeam,
  outboxTo,
  signIn,
  startSignedInBed,
  type BedWithDns,
  type MemberTeam,
} from './support/signed-in.ts';

let bed: BedWithDns;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;
let api: ReturnType<typeof apiClient>;
let bookId: string;

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser] = await Promise.all([startSignedInBed(), launchBrowser()]);
  team = await createMemberTeam(bed);
  api = apiClient(bed, team.key);
  const { context } = await newContext(browser);
  page = await context.newPage();
  await signIn(bed, page, team.ownerEmail);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await bed?.close();
});

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });
afterAll(() => vi.resetConfig());

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const contactsTable = () => page.getByRole('table', { name: 'Contacts' });
const bookCount = async () => (await api('GET', `/v1/contactBooks/${bookId}`)).body._count.contacts as number;

describe('contact books', () => {
  it('creates a book from the empty state and adds a contact in the side sheet', async () => {
    await page.goto(`${bed.base}/contacts`);
    await h1('Contacts').waitFor();
    await page.getByText('No contact books yet').waitFor();
    await checkPage(page, 'contacts-empty');
    await page.getByRole('button', { name: 'Create book' }).click();
    const form = page.getByRole('dialog', { name: 'Create a contact book' });
    await form.getByLabel('Name').fill('Newsletter');
    await form.getByRole('button', { name: 'Create book' }).click();
    await h1('📙 Newsletter').waitFor();
    bookId = new URL(page.url()).pathname.split('/')[2]!;
    expect(bookId).toMatch(/^cb_/);
    await page.getByText('No contacts in this book yet').waitFor();
    await checkPage(page, 'contact-book-empty');

    await page.getByRole('button', { name: 'Add contact' }).first().click();
    const sheet = page.getByRole('dialog', { name: 'Add a contact' });
    await poll(() => new URL(page.url()).searchParams.get('contact')).toBe('new');
    await sheet.getByLabel('Email').fill('ada@');
    await sheet.getByRole('button', { name: 'Add contact' }).click();
    await sheet.getByText('must be an email address').waitFor();
    expect(await sheet.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await sheet.getByLabel('Email').fill('Ada@Example.com');
    await sheet.getByLabel('First name').fill('Ada');
    await sheet.getByRole('button', { name: 'Add property' }).click();
    await sheet.getByLabel('Name of property 1').fill('plan');
    await sheet.getByLabel('Value of property 1').fill('pro');
    await checkPage(page, 'contact-add');
    await sheet.getByRole('button', { name: 'Add contact' }).click();
    await contactsTable().getByRole('link', { name: 'ada@example.com' }).waitFor();
    await poll(() => new URL(page.url()).searchParams.get('contact')).toBeNull();
    const listed = await api('GET', `/v1/contactBooks/${bookId}/contacts?emails=ada@example.com`);
    expect(listed.body).toMatchObject([{ email: 'ada@example.com', firstName: 'Ada', properties: { plan: 'pro' } }]);
  });

  it('imports 2,500 rows in batches with a progress bar, and lists and downloads the 3 rejected', async () => {
    await page.getByRole('button', { name: 'Import CSV' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Import contacts into Newsletter' });
    await dialog.getByLabel('CSV file').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(peopleCsv()),
    });
    const preview = dialog.getByRole('table', { name: 'Preview of the first rows' });
    await preview.getByText('user3@example.com').waitFor();
    expect(await preview.getByRole('row').count()).toBe(21); // the header and 20 rows
    expect(await dialog.getByLabel('Import column “email” as').inputValue()).toBe('email');
    expect(await dialog.getByLabel('Import column “First Name” as').inputValue()).toBe('firstName');
    expect(await dialog.getByLabel('Import column “plan” as').inputValue()).toBe('property');
    await checkPage(page, 'contact-import-preview');

    // Every value the bar takes, recorded in the page as it changes (a script string: no DOM types here).
    await page.evaluate(`
      window.progress = [];
      new MutationObserver(() => {
        const now = document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow');
        if (now && window.progress.at(-1) !== now) window.progress.push(now);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    `);
    await dialog.getByRole('button', { name: 'Import 2,500 rows' }).click();
    const bar = dialog.getByRole('progressbar');
    await bar.waitFor();
    expect(await bar.getAttribute('aria-valuemax')).toBe('2500');
    await poll(() => bar.getAttribute('aria-valuenow')).toBe('2500');
    const progress = (await page.evaluate('window.progress')) as string[];
    expect(progress.map(Number)).toEqual([3, 1003, 2003, 2500]); // the rejected first, then three batches

    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.getByText('2,497 added · 0 updated · 3 rejected').waitFor();
    const rejected = summary.getByRole('table', { name: 'Rejected rows' });
    expect(await rejected.getByRole('row').count()).toBe(4);
    await rejected.getByRole('row', { name: /^11 not-an-email email: must be an email address/ }).waitFor();
    await rejected.getByRole('row', { name: /^21 user1@example\.com .*already on line 2 of the file/ }).waitFor();
    await rejected.getByRole('row', { name: /^31 user30@example\.com subscribed: "maybe" is not/ }).waitFor();
    await checkPage(page, 'contact-import-summary');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      summary.getByRole('button', { name: 'Download rejected rows (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('people.rejected.csv');
    const lines = fs
      .readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('line,reason,email,First Name,plan,subscribed');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['11', '21', '31']);
    expect(lines[1]).toBe('11,email: must be an email address,not-an-email,Person 10,free,yes');

    await summary.getByRole('button', { name: 'Done' }).click();
    await page.getByText('2,498 contacts', { exact: true }).waitFor();
    expect(await bookCount()).toBe(2498);
  });

  it('finds contacts by address and pages through the rest, the page and search in the URL', async () => {
    await page.goto(`${bed.base}/contacts/${bookId}`);
    await page.getByText('1–50 of 2,498').waitFor();
    expect(await contactsTable().getByRole('row').count()).toBe(51);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('51–100 of 2,498').waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await checkPage(page, 'contact-book');

    await page.getByLabel('Find by email').fill('USER42@example.com');
    await poll(() => new URL(page.url()).searchParams.get('email')).toBe('USER42@example.com');
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();
    await contactsTable().getByRole('link', { name: 'user42@example.com' }).waitFor();
    await poll(() => contactsTable().getByRole('row').count()).toBe(2);
    await page.reload();
    await contactsTable().getByRole('link', { name: 'user42@example.com' }).waitFor();
    expect(await page.getByLabel('Find by email').inputValue()).toBe('USER42@example.com');
  });

  it('deletes the contacts picked with checkboxes after a confirm naming how many', async () => {
    await page.getByLabel('Find by email').fill('user1@example.com, user2@example.com, user3@example.com');
    await poll(() => contactsTable().getByRole('row').count()).toBe(4);
    await page.getByLabel('Select all contacts on this page').check();
    await page.getByLabel('Select user2@example.com').uncheck();
    await page.getByRole('button', { name: 'Delete 2 contacts' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete 2 contacts?' });
    await checkPage(page, 'contacts-bulk-delete');
    await confirm.getByRole('button', { name: 'Delete 2 contacts' }).click();
    await page.getByText('2 contacts deleted').waitFor();
    await poll(() => contactsTable().getByRole('row').count()).toBe(2);
    const left = await api('GET', `/v1/contactBooks/${bookId}/contacts?emails=user1@example.com,user2@example.com`);
    expect(left.body.map((c: { email: string }) => c.email)).toEqual(['user2@example.com']);
    expect(await bookCount()).toBe(2496);
  });

  it('edits a contact in the side sheet', async () => {
    await page.getByLabel('Find by email').fill('ada@example.com');
    await contactsTable().getByRole('link', { name: 'ada@example.com' }).click();
    const sheet = page.getByRole('dialog', { name: 'ada@example.com' });
    await sheet.getByLabel('Last name').fill('Lovelace');
    await sheet.getByLabel('Subscribed').uncheck();
    await page.keyboard.press('Control+Enter'); // ⌘/Ctrl Enter submits, as in every dialog
    await page.getByText('Contact saved').waitFor();
    const ada = (await api('GET', `/v1/contactBooks/${bookId}/contacts?emails=ada@example.com`)).body[0];
    expect(ada).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      subscribed: false,
      properties: { plan: 'pro' },
    });
  });
});

describe('double opt-in settings', () => {
  it('shows the API’s error beside From, saves the settings, and the next contact is asked to confirm', async () => {
    const domain = (await verifiedDomain(bed, team.key, uniqueDomain())).name;
    await page.goto(`${bed.base}/contacts/${bookId}?tab=settings`);
    await page.getByRole('tab', { name: 'Settings', selected: true }).waitFor();
    await page.getByLabel('Ask new contacts to confirm their address').check();
    await page.getByRole('note').getByText('Without a From address').waitFor();
    await page.getByLabel('From', { exact: true }).fill('hello@unverified.example');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('unverified.example is not a verified sending domain of the team').waitFor();
    expect(await page.getByLabel('From', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('From', { exact: true }).fill(`News <hello@${domain}>`);
    await page.getByLabel('Subject', { exact: true }).fill('Confirm your Newsletter subscription');
    await page.getByLabel('Message', { exact: true }).fill('Hello {{firstName}},\n\nPlease confirm you want our news.');
    await page.getByLabel('Variables', { exact: true }).fill('plan, city');
    await checkPage(page, 'contact-book-settings');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    await page.getByText('No unsaved changes').waitFor();
    const { body: saved } = await api('GET', `/v1/contactBooks/${bookId}`);
    expect(saved).toMatchObject({
      doubleOptInEnabled: true,
      doubleOptInFrom: `News <hello@${domain}>`,
      doubleOptInSubject: 'Confirm your Newsletter subscription',
      variables: ['plan', 'city'],
    });
    expect(JSON.parse(saved.doubleOptInContent)).toEqual({
      version: 1,
      blocks: [
        { type: 'paragraph', content: ['Hello {{firstName}},'] },
        { type: 'paragraph', content: ['Please confirm you want our news.'] },
      ],
    });

    // A reload shows the message as it was written, and the book's header says double opt-in is on.
    await page.reload();
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe(
      'Hello {{firstName}},\n\nPlease confirm you want our news.',
    );
    await page.getByText('Double opt-in on').waitFor();
    await api('POST', `/v1/contactBooks/${bookId}/contacts`, { email: 'grace@example.com', firstName: 'Grace' });
    await poll(async () => {
      bed.runner.wake();
      return (await outboxTo(bed, 'grace@example.com')).length;
    }).toBe(1);
    const [mail] = await outboxTo(bed, 'grace@example.com');
    expect(mail!.raw).toContain(`From: News <hello@${domain}>`);
    expect(mail!.raw).toContain('Subject: Confirm your Newsletter subscription');
  });
});

describe('deleting a book', () => {
  it('shows the API’s refusal while an active journey uses it, then deletes it after its name is typed', async () => {
    const journey = await api('POST', '/v1/journeys', {
      name: 'Wait a minute',
      triggerType: 'API',
      contactBookId: bookId,
      steps: [{ id: 'wait', type: 'WAIT', seconds: 60 }],
    });
    expect(journey.status, JSON.stringify(journey.body)).toBe(201);
    expect((await api('POST', `/v1/journeys/${journey.body.id}/status`, { status: 'ACTIVE' })).status).toBe(200);

    await page.goto(`${bed.base}/contacts`);
    const books = page.getByRole('table', { name: 'Contact books' });
    await books.getByRole('link', { name: '📙 Newsletter' }).waitFor();
    await checkPage(page, 'contacts');
    await books.getByRole('button', { name: 'Delete Newsletter' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the contact book Newsletter?' });
    const remove = confirm.getByRole('button', { name: 'Delete book' });
    expect(await remove.isDisabled()).toBe(true);
    await confirm.getByLabel(/to confirm/).fill('Newsletter');
    await remove.click();
    await confirm
      .getByRole('alert')
      .getByText(/^the contact book cannot be deleted: /)
      .waitFor();
    await checkPage(page, 'contacts-delete-refused');

    await api('POST', `/v1/journeys/${journey.body.id}/status`, { status: 'ARCHIVED' });
    await remove.click();
    await page.getByText('Contact book deleted').waitFor();
    await page.getByText('No contact books yet').waitFor();
    expect((await api('GET', `/v1/contactBooks/${bookId}`)).status).toBe(404);
  });

  it('shows the not-found page for an unknown book and for another team’s', async () => {
    const other = await createTeam(bed.t.app);
    const theirs = await apiClient(bed, other.key)('POST', '/v1/contactBooks', { name: 'Theirs' });
    for (const id of ['cb_unknown', theirs.body.id as string]) {
      await page.goto(`${bed.base}/contacts/${id}`);
      await h1('Not found').waitFor();
      await page.getByText('This contact book does not exist in this team.').waitFor();
      expect(await page.getByText('Theirs').count()).toBe(0);
    }
    await checkPage(page, 'contact-book-not-found');
  });
});

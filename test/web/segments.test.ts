// Segments in a real Chromium against a real Herald: a book of 12 contacts seeded through the public
// API; a segment built in the condition builder from two conditions, whose live count and first
// contacts match the seed before it is saved (the preview endpoint, 500 ms after the last edit) and
// after; editing a condition of a saved segment recounts without saving; the API's 400 shown under
// the condition it names, before and at a save, and its 409 beside the name; a group of conditions;
// the index and the book's tab listing it; delete after a confirm; an unknown segment and another
// team's answer the not-found page. Every page checked with axe at 1280 and 375 px.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTeam } from '../support/factory.ts';
import { checkPage, launchBrowser, newContext, reportPageOnFailure } from './support/browser.ts';
import { apiClient } from './support/api-seeds.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import { createMemberTeam, signIn, startSignedInBed, type BedWithDns, type MemberTeam } from './support/signed-in.ts';

let bed: BedWithDns;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;
let api: ReturnType<typeof apiClient>;
let bookId: string;
let segmentId: string;

/** c1 … c12: plan pro for every third, unsubscribed every fourth. */
const seed = Array.from({ length: 12 }, (_, i) => ({
  email: `c${i + 1}@example.com`,
  subscribed: (i + 1) % 4 !== 0,
  properties: { plan: (i + 1) % 3 === 0 ? 'pro' : 'free' },
}));
const matching = (plan: string) => seed.filter((c) => c.subscribed && c.properties.plan === plan).map((c) => c.email);

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser] = await Promise.all([startSignedInBed(), launchBrowser()]);
  team = await createMemberTeam(bed);
  api = apiClient(bed, team.key);
  const book = await api('POST', '/v1/contactBooks', { name: 'Customers', variables: ['plan'] });
  bookId = book.body.id;
  const added = await api('POST', `/v1/contactBooks/${bookId}/contacts/bulk`, seed);
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const { context } = await newContext(browser);
  page = await context.newPage();
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/segments/preview'))
      previewed.push(request.postDataJSON() as (typeof previewed)[number]);
  });
  await signIn(bed, page, team.ownerEmail);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await bed?.close();
});

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
afterAll(() => vi.resetConfig());

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const liveCount = () => page.getByRole('region', { name: 'Live count' }).getByRole('status');
const matches = () => page.getByRole('table', { name: 'Matching contacts' });
const matchedEmails = async () => (await matches().getByRole('link').allTextContents()).sort();
const counted = (n: number) => `${n} ${n === 1 ? 'contact matches' : 'contacts match'}`;
/** The definitions the page asked the preview endpoint about, oldest first. */
const previewed: { definition: { conditions: Record<string, unknown>[] } }[] = [];

describe('the segment builder', () => {
  it('builds a segment from two conditions, and its live count and contacts match the book', async () => {
    await page.goto(`${bed.base}/segments`);
    await h1('Segments').waitFor();
    await page.getByText('No segments yet').waitFor();
    await checkPage(page, 'segments-empty');
    await page.getByRole('link', { name: 'New segment' }).click();
    await h1('New segment').waitFor();
    expect(await page.getByLabel('Contact book').inputValue()).toBe(bookId);
    expect(await page.getByLabel('Field of condition 1').inputValue()).toBe('subscribed');
    expect(await page.getByLabel('Value of condition 1').inputValue()).toBe('true');
    // Counted before it is saved: the subscribed contacts of the book.
    const subscribed = seed.filter((c) => c.subscribed).map((c) => c.email);
    await poll(() => liveCount().textContent()).toBe(counted(subscribed.length));
    await poll(matchedEmails).toEqual([...subscribed].sort());
    await page.getByLabel('Name', { exact: true }).fill('Pro subscribers');
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByLabel('Field of condition 2').selectOption('property');
    expect(await page.getByLabel('Property of condition 2').inputValue()).toBe('plan');
    await page.getByLabel('Operator of condition 2').selectOption('equals');
    await page.getByLabel('Value of condition 2').fill('PRO'); // text comparisons ignore case
    const expected = matching('pro');
    expect(expected).toHaveLength(3);
    await poll(() => liveCount().textContent()).toBe(counted(expected.length));
    await poll(matchedEmails).toEqual([...expected].sort());
    await checkPage(page, 'segment-new');
    // Nothing was stored by counting.
    expect((await api('GET', `/v1/contactBooks/${bookId}/segments`)).body.data).toEqual([]);
    await page.getByRole('button', { name: 'Create segment' }).click();

    await h1('Pro subscribers').waitFor();
    const url = new URL(page.url());
    segmentId = url.pathname.split('/')[2]!;
    expect(segmentId).toMatch(/^sg_/);
    expect(url.searchParams.get('book')).toBe(bookId);
    await poll(() => liveCount().textContent()).toBe(counted(expected.length));
    await poll(matchedEmails).toEqual([...expected].sort());
    const { body } = await api('GET', `/v1/contactBooks/${bookId}/segments/${segmentId}`);
    expect(body).toMatchObject({
      count: expected.length,
      definition: {
        version: 1,
        match: 'all',
        conditions: [
          { type: 'subscribed', op: 'is', value: true },
          { type: 'property', key: 'plan', op: 'equals', value: 'PRO' },
        ],
      },
    });
    await checkPage(page, 'segment-detail');
  });

  it('recounts an edited condition without saving it, and shows the API’s 400 under the condition', async () => {
    const region = page.getByRole('region', { name: 'Live count' });
    await page.getByLabel('Operator of condition 2').selectOption('gt');
    // The preview's 400, under condition 2, before any save.
    await page.getByText('value must be a number with op gt').waitFor();
    expect(await page.getByLabel('Value of condition 2').getAttribute('aria-invalid')).toBe('true');
    await region.getByText('Not counted').waitFor();
    await checkPage(page, 'segment-error');
    // A save answers the same 400, shown once.
    await page.getByRole('button', { name: 'Save segment' }).click();
    await poll(() => page.getByText('value must be a number with op gt').count()).toBe(1);

    await page.getByLabel('Operator of condition 2').selectOption('equals');
    await page.getByLabel('Value of condition 2').fill('free');
    const free = matching('free');
    await poll(() => liveCount().textContent()).toBe(counted(free.length));
    await poll(matchedEmails).toEqual([...free].sort());
    await region.getByText('The conditions as edited, not saved yet.').waitFor();
    expect(await page.getByText('value must be a number with op gt').count()).toBe(0);
    expect(previewed.at(-1)?.definition.conditions[1]).toEqual({
      type: 'property',
      key: 'plan',
      op: 'equals',
      value: 'free',
    });
    // Still the saved definition and count on the API.
    const saved = await api('GET', `/v1/contactBooks/${bookId}/segments/${segmentId}`);
    expect(saved.body.count).toBe(matching('pro').length);
    expect(saved.body.definition.conditions[1].value).toBe('PRO');

    await page.getByRole('button', { name: 'Save segment' }).click();
    await poll(async () => (await api('GET', `/v1/contactBooks/${bookId}/segments/${segmentId}`)).body.count).toBe(
      free.length,
    );
    await region.getByText('Right now.').waitFor();
    await poll(() => liveCount().textContent()).toBe(counted(free.length));
  });

  it('adds a group of conditions matched by any, one level deep', async () => {
    await page.getByRole('button', { name: 'Add group' }).click();
    const group = page.getByRole('group', { name: 'Group 3' });
    await group.getByLabel('Operator of condition 3.1').selectOption('ends_with');
    await group.getByLabel('Value of condition 3.1').fill('1@example.com');
    await group.getByRole('button', { name: 'Add condition to group 3' }).click();
    await group.getByLabel('Value of condition 3.2').fill('c2@example.com');
    expect(await group.getByLabel('Match of group 3').inputValue()).toBe('any');
    await page.getByText('4 of 20 conditions').waitFor();
    // Subscribed, plan free, and an address ending in 1@example.com or exactly c2@example.com.
    const expected = matching('free').filter((e) => e.endsWith('1@example.com') || e === 'c2@example.com');
    expect(expected).toEqual(['c1@example.com', 'c2@example.com', 'c11@example.com']);
    await poll(() => liveCount().textContent()).toBe(counted(expected.length));
    await poll(matchedEmails).toEqual([...expected].sort());
    await checkPage(page, 'segment-group');
    await page.getByRole('button', { name: 'Save segment' }).click();
    await page.getByRole('region', { name: 'Live count' }).getByText('Right now.').waitFor();
    const { body } = await api('GET', `/v1/contactBooks/${bookId}/segments/${segmentId}`);
    expect(body.definition.conditions[2]).toEqual({
      type: 'group',
      match: 'any',
      conditions: [
        { type: 'email', op: 'ends_with', value: '1@example.com' },
        { type: 'email', op: 'equals', value: 'c2@example.com' },
      ],
    });
  });

  it('is driven by the keyboard, and stays accessible in dark mode', async () => {
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.getByRole('button', { name: 'Add condition', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Field of condition 4').waitFor();
    await checkPage(page, 'segment-dark');
    // Back from "Add condition" is the new condition's remove button.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await poll(() => page.getByLabel('Field of condition 4').count()).toBe(0);
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
  });

  it('shows the 409 for a name already taken beside the name', async () => {
    await page.goto(`${bed.base}/segments/new?book=${bookId}`);
    await h1('New segment').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Pro subscribers');
    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.getByText('a segment named "Pro subscribers" already exists in this contact book').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  });
});

describe('segment lists', () => {
  it('lists the segment with its count on the index and on the book’s tab', async () => {
    await page.goto(`${bed.base}/segments`);
    const table = page.getByRole('table', { name: 'Segments' });
    const row = table.getByRole('row', { name: /Pro subscribers/ });
    await row.waitFor();
    await poll(async () => (await row.getByRole('cell').allTextContents()).slice(1, 4)).toEqual([
      '📙 Customers',
      '3',
      '4',
    ]);
    await checkPage(page, 'segments');
    await page.goto(`${bed.base}/contacts/${bookId}?tab=segments`);
    await page.getByRole('tabpanel').getByRole('link', { name: 'Pro subscribers' }).click();
    await h1('Pro subscribers').waitFor();
    // A link without ?book= finds the segment's book itself.
    await page.goto(`${bed.base}/segments/${segmentId}`);
    await h1('Pro subscribers').waitFor();
  });

  it('shows the not-found page for an unknown segment and for another team’s', async () => {
    const other = await createTeam(bed.t.app);
    const theirs = apiClient(bed, other.key);
    const book = (await theirs('POST', '/v1/contactBooks', { name: 'Theirs' })).body;
    const segment = await theirs('POST', `/v1/contactBooks/${book.id}/segments`, {
      name: 'Their segment',
      definition: { version: 1, match: 'all', conditions: [{ type: 'subscribed', op: 'is', value: true }] },
    });
    expect(segment.status).toBe(201);
    for (const path of ['sg_unknown', segment.body.id, `${segment.body.id}?book=${book.id}`]) {
      await page.goto(`${bed.base}/segments/${path}`);
      await h1('Not found').waitFor();
      expect(await page.getByText('Their segment').count()).toBe(0);
    }
    await checkPage(page, 'segment-not-found');
  });

  it('deletes a segment after a confirm', async () => {
    await page.goto(`${bed.base}/segments/${segmentId}?book=${bookId}`);
    await h1('Pro subscribers').waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the segment Pro subscribers?' });
    await confirm.getByRole('button', { name: 'Delete segment' }).click();
    await h1('Segments').waitFor();
    await page.getByText('No segments yet').waitFor();
    expect((await api('GET', `/v1/contactBooks/${bookId}/segments/${segmentId}`)).status).toBe(404);
  });
});

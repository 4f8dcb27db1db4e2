// SMS and Codes in a real Chromium against a real Herald with its worker, whose SMS go to a fake
// Twilio on loopback (its status callbacks signed as Twilio signs them): a test SMS refused by the
// API's field rule and then by the empty wallet (402, shown plainly), sent once the operator topped
// the wallet up, seen in the log with its charge and the balance after, followed to Delivered,
// filtered, opened in its panel; another team's SMS not found. Codes sent through the API (one
// LOW, one refused HIGH) listed newest first with their risk (GET /v1/verify), opened in place,
// filtered by status, channel and risk in the URL; a test code sent from the page; 50 a page with
// Older and Newest; an unknown code id and another team's alike not in this team. Every page
// accessible (axe) and photographed at 1280 and 375 px, the code log in dark too.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SMS_CALLBACK_PATHS } from '../../src/adapters/sms-provider/index.ts';
import { adminRequest, bearer, createSmsTeam } from '../support/factory.ts';
import { checkPage, launchBrowser, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import { startSmsBed, type SmsBed } from './support/messaging-bed.ts';
import { createMemberTeam, signIn, type MemberTeam } from './support/signed-in.ts';

let bed: SmsBed;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;

// Valid under libphonenumber-js's max metadata; the GB one is premium-rate (a HIGH risk signal).
const US = '+14155552671';
const US_CODE = '+14155552672';
const US_TEST_CODE = '+14155552673';
const GB_PREMIUM = '+449098765432';

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser] = await Promise.all([startSmsBed(), launchBrowser()]);
  team = await createMemberTeam(bed);
  // SMS on for the team, the wallet left empty until the test tops it up.
  await adminRequest(bed.t.app, 'PATCH', `/teams/${team.id}`, { smsEnabled: true });
  const { context } = await newContext(browser);
  page = await context.newPage();
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
const param = (name: string) => new URL(page.url()).searchParams.get(name);

async function api(key: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const response = await bed.t.app.inject({ method, url: `/api${url}`, headers: bearer(key), payload });
  return { status: response.statusCode, body: response.json() };
}

describe('SMS', () => {
  it('refuses a bad number beside the field and an empty wallet plainly, then sends and logs the SMS', async () => {
    await page.goto(`${bed.base}/sms`);
    await h1('SMS').waitFor();
    await page.getByText('No SMS sent yet.').waitFor();
    await checkPage(page, 'sms-empty');

    await page.getByRole('button', { name: 'Send test SMS' }).first().click();
    const form = page.getByRole('dialog', { name: 'Send a test SMS' });
    await form.getByLabel('To').fill('+1 415 555 2671');
    await form.getByRole('button', { name: 'Send SMS' }).click();
    await form.getByText(/^must be an E\.164 number/).waitFor();
    expect(await form.getByLabel('To').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('To').fill(US);
    await form.getByRole('button', { name: 'Send SMS' }).click();
    await form
      .getByRole('alert')
      .getByText(/top it up first\. Nothing was sent and nothing was charged/)
      .waitFor();
    await checkPage(page, 'sms-send-402');

    await adminRequest(bed.t.app, 'POST', `/teams/${team.id}/wallet/top-ups`, { amountMinor: 10_000 });
    await form.getByRole('button', { name: 'Send SMS' }).click();
    await form.waitFor({ state: 'hidden' });
    const notice = page.getByRole('status').filter({ hasText: 'Test SMS to' });
    await notice.getByText(/charged \$\d/).waitFor();
    await notice.getByText(/Wallet balance after: \$\d/).waitFor();

    const table = page.getByRole('table', { name: 'SMS' });
    const masked = '+*******2671';
    await table.getByRole('button', { name: masked }).waitFor();
    expect(await page.getByText(US).count()).toBe(0);
    bed.runner.wake();
    await poll(() => bed.twilio.messages.length).toBe(1);
    expect(bed.twilio.messages[0]).toMatchObject({ to: US, body: 'This is a test SMS from Herald.' });
    const callback = `${bed.base}${SMS_CALLBACK_PATHS.twilio}`;
    expect(
      (await bed.twilio.postStatus(callback, { sid: bed.twilio.messages[0]!.sid, status: 'delivered' })).status,
    ).toBe(200);
    // The list polls while a message can still change.
    await table.getByText('Delivered').waitFor({ timeout: 30_000 });
    await checkPage(page, 'sms');
  });

  it('filters by status in the URL and opens a message in its panel', async () => {
    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await poll(() => param('status')).toBe('failed');
    await page.getByText('No SMS matches this filter.').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('delivered');
    await poll(() => param('status')).toBe('delivered');
    const table = page.getByRole('table', { name: 'SMS' });
    await table.getByRole('button', { name: '+*******2671' }).click();
    const panel = page.getByRole('dialog', { name: 'SMS to +*******2671' });
    await panel.getByText('Delivered', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Copy SMS id' }).waitFor();
    expect(param('sms')).toMatch(/^sms_/);
    await checkPage(page, 'sms-panel');
    await page.keyboard.press('Escape');
    await poll(() => param('sms')).toBeNull();
    await page.getByRole('button', { name: 'Remove filter Status: Delivered' }).click();
    await poll(() => param('status')).toBeNull();
  });

  it("answers an unknown SMS id and another team's alike: not found", async () => {
    const other = await createSmsTeam(bed.t.app);
    const theirs = await api(other.key, 'POST', '/v1/sms', { to: US, text: 'Not yours' });
    expect(theirs.status).toBe(201);
    for (const id of [theirs.body.id as string, 'sms_doesnotexist']) {
      await page.goto(`${bed.base}/sms?sms=${id}`);
      await page.getByRole('dialog').getByText('This SMS does not exist in this team.').waitFor();
      expect(await page.getByText('Not yours').count()).toBe(0);
    }
    await page.keyboard.press('Escape');
  });
});

describe('codes', () => {
  let low: string;
  let refused: string;
  const table = () => page.getByRole('table', { name: 'Codes' });
  const recipients = () => table().locator('tbody button[aria-expanded]').allTextContents();
  /** A code through the API, a second after the last: the clock stands still, and newest first is by time. */
  const sendCode = (key: string, to: string, appName = 'Acme') => {
    bed.t.clock.advance(1_000);
    return api(key, 'POST', '/v1/verify/send', { to, channel: 'sms', appName });
  };

  it('lists the codes sent through the API newest first, with their risk level and reasons', async () => {
    await page.goto(`${bed.base}/codes`);
    await h1('Codes').waitFor();
    await page.getByText('No codes sent yet.').waitFor();
    await checkPage(page, 'codes-empty');

    const sent = await sendCode(team.key, US_CODE);
    expect(sent.status).toBe(201);
    low = sent.body.id;
    // The bed's clock stands still: a second later, so that "newest first" is the order of sending.
    bed.t.clock.advance(1_000);
    const premium = await sendCode(team.key, GB_PREMIUM);
    expect(premium.status).toBe(422);
    refused = premium.body.id;

    await page.reload();
    await table().getByRole('button', { name: US_CODE }).waitFor();
    expect(await recipients()).toEqual([GB_PREMIUM, US_CODE]);
    const lowRow = table().getByRole('row').filter({ hasText: US_CODE }).first();
    await lowRow.getByText('Low').waitFor();
    await lowRow.getByText('Pending').waitFor();
    const highRow = table().getByRole('row').filter({ hasText: GB_PREMIUM }).first();
    await highRow.getByText('High').waitFor();
    await highRow.getByText('Refused').waitFor();

    await table().getByRole('button', { name: US_CODE }).click();
    await poll(() => param('id')).toBe(low);
    await poll(() => table().getByRole('button', { name: US_CODE }).getAttribute('aria-expanded')).toBe('true');
    await table().getByRole('button', { name: 'Copy code id' }).waitFor();
    await table().getByRole('button', { name: GB_PREMIUM }).click();
    await poll(() => param('id')).toBe(refused);
    await table()
      .getByRole('region', { name: `Risk reasons of ${refused}` })
      .getByText('NON_MOBILE_NUMBER')
      .waitFor();
    await checkPage(page, 'codes');
    // Closing the disclosure takes the id out of the URL.
    await table().getByRole('button', { name: GB_PREMIUM }).click();
    await poll(() => param('id')).toBeNull();
  });

  it('filters by status, channel and risk level in the URL, each a removable chip', async () => {
    await page.getByLabel('Status', { exact: true }).selectOption('refused');
    await poll(() => param('status')).toBe('refused');
    await poll(recipients).toEqual([GB_PREMIUM]);
    await page.getByLabel('Risk', { exact: true }).selectOption('LOW');
    await poll(() => param('risk')).toBe('LOW');
    await page.getByText('No codes match these filters.').waitFor();
    await checkPage(page, 'codes-filtered-empty');
    await page.getByRole('button', { name: 'Remove filter Status: Refused' }).click();
    await poll(() => param('status')).toBeNull();
    await poll(recipients).toEqual([US_CODE]);
    // A reload keeps the view: the filter is in the URL.
    await page.reload();
    await poll(recipients).toEqual([US_CODE]);
    await page.getByLabel('Channel', { exact: true }).selectOption('email');
    await poll(() => param('channel')).toBe('email');
    await page.getByText('No codes match these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await poll(() => [param('status'), param('channel'), param('risk')]).toEqual([null, null, null]);
    await poll(recipients).toEqual([GB_PREMIUM, US_CODE]);
  });

  it('sends a test code from the page, the API field error beside the field first', async () => {
    await page.getByRole('button', { name: 'Send test code' }).click();
    const form = page.getByRole('dialog', { name: 'Send a test code' });
    // Email is the API's default channel; this team has no verified domain to send it from.
    await form.getByRole('button', { name: 'Send code' }).click();
    await form.getByText(/the team has no verified domain/).waitFor();
    expect(await form.getByLabel('From (optional)').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('SMS').check();
    await form.getByLabel('To').fill(US_TEST_CODE);
    await form.getByLabel('App name').fill('Herald test');
    bed.t.clock.advance(1_000);
    await form.getByRole('button', { name: 'Send code' }).click();
    await form.waitFor({ state: 'hidden' });
    await table().getByRole('button', { name: US_TEST_CODE }).waitFor();
    // Opened once the URL names it (the row can come with the list's refetch a render earlier).
    await poll(() => table().getByRole('button', { name: US_TEST_CODE }).getAttribute('aria-expanded')).toBe('true');
    // The log is the API's: a reload (and any other browser) shows all three, newest first.
    await page.reload();
    await table().getByRole('button', { name: US_TEST_CODE }).waitFor();
    expect(await recipients()).toEqual([US_TEST_CODE, GB_PREMIUM, US_CODE]);
  });

  it('shows 50 codes a page, Older and Newest with the cursor in the URL', async () => {
    // 50 more codes, eight numbers to a prefix (the number without its last four digits), so that
    // no send limit or pumping signal is reached.
    const more: string[] = [];
    for (let i = 0; i < 50; i++) {
      const to = `+1415${560 + Math.floor(i / 8)}${2600 + i}`;
      const response = await sendCode(team.key, to);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      more.push(to);
    }
    await page.goto(`${bed.base}/codes`);
    await poll(async () => (await recipients())[0]).toBe(more[49]);
    expect(await recipients()).toHaveLength(50);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Older' }).click();
    await poll(() => param('cursor')).toBeTruthy();
    await poll(recipients).toEqual([US_TEST_CODE, GB_PREMIUM, US_CODE]);
    // A reload (or a pasted link) with the cursor is the same page.
    await page.reload();
    await poll(recipients).toEqual([US_TEST_CODE, GB_PREMIUM, US_CODE]);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Newest' }).click();
    await poll(() => param('cursor')).toBeNull();
    await poll(async () => (await recipients())[0]).toBe(more[49]);
    // A code on the older page opened by its id is read by itself.
    await page.goto(`${bed.base}/codes?id=${low}`);
    const looked = page.getByRole('table', { name: 'Looked-up code' });
    await looked.getByRole('button', { name: 'Copy code id' }).waitFor();
    expect(await looked.getByRole('button', { name: US_CODE }).getAttribute('aria-expanded')).toBe('true');
  });

  it("answers an unknown code id and another team's alike, and reads well in dark mode", async () => {
    const other = await createSmsTeam(bed.t.app);
    const theirs = await sendCode(other.key, US, 'Other');
    expect(theirs.status).toBe(201);
    for (const id of [theirs.body.id as string, 'ver_doesnotexist']) {
      await page.goto(`${bed.base}/codes?id=${id}`);
      await page.getByRole('alert').getByText(`No code with the id ${id} exists in this team.`).waitFor();
      await table().locator('tbody button[aria-expanded]').first().waitFor();
      expect(await page.getByText(US, { exact: true }).count()).toBe(0);
    }
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.goto(`${bed.base}/codes?id=${refused}&status=refused`);
    await table().getByRole('button', { name: 'Copy code id' }).waitFor();
    await checkPage(page, 'codes-dark');
    // The codes' SMS are the newest now: the delivered test SMS is found by its status.
    await page.goto(`${bed.base}/sms?status=delivered`);
    await page.getByRole('table', { name: 'SMS' }).getByText('Delivered').first().waitFor();
    await checkPage(page, 'sms-dark');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
  });
});

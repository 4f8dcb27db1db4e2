// Journeys in a real Chromium against a real Herald with its worker: a journey created through the
// dashboard with an email step and a wait step (the API's field errors beside the fields), its steps
// edited while a draft, activated after a confirm, a contact enrolled through the API, its run seen
// with its history and the step's send count rising, the run completed once the test clock passes
// the wait, paused after a confirm and a contact enrolled from the dashboard; the list with its
// filter; another team's journey not found.
// Every page accessible (axe) and photographed at 1280 and 375 px. Seeds go through the public API.
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTeam } from '../support/factory.ts';
import { checkPage, launchBrowser, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import { apiClient, verifiedDomain } from './support/api-seeds.ts';
import { createMemberTeam, signIn, startSignedInBed, type BedWithDns, type MemberTeam } from './support/signed-in.ts';

let bed: BedWithDns;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;
let call: ReturnType<typeof apiClient>;
let from: string;
let journeyId: string;

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser] = await Promise.all([startSignedInBed(), launchBrowser()]);
  team = await createMemberTeam(bed);
  call = apiClient(bed, team.key);
  const domain = await verifiedDomain(bed, team.key, `j${randomBytes(5).toString('hex')}.example.test`);
  from = `hello@${domain.name}`;
  const book = await call('POST', '/v1/contactBooks', { name: 'Customers' });
  expect(book.status, JSON.stringify(book.body)).toBe(200);
  const template = await call('POST', '/v1/templates', {
    name: 'Welcome',
    subject: 'Welcome aboard',
    type: 'TRANSACTIONAL',
    html: '<p>Hello {{firstName}}</p>',
  });
  expect(template.status, JSON.stringify(template.body)).toBe(200);
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

// The detail page reads an active journey again every 5 s: a change shows within one or two rounds.
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const stat = (label: string) =>
  page
    .getByRole('region', { name: 'Runs so far' })
    .locator('div')
    .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) })
    .getByRole('definition');
const stepCard = (heading: string) =>
  page
    .getByRole('list', { name: 'Journey steps' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: heading }) });

describe('journeys', () => {
  it('creates a journey with an email step and a wait step, the API’s errors beside the fields', async () => {
    await page.goto(`${bed.base}/journeys`);
    await h1('Journeys').waitFor();
    await page.getByText('No journeys yet').waitFor();
    await checkPage(page, 'journeys-empty');
    await page.getByRole('button', { name: 'Create journey' }).click();
    const form = page.getByRole('dialog', { name: 'Create a journey' });
    await form.getByRole('button', { name: 'Create journey' }).click();
    // Nothing filled in: the API names each field, and each error sits beside its own.
    await poll(() => form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('Contact book').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('Name').fill('Onboarding');
    await form.getByLabel('Contact book').selectOption({ label: 'Customers' });
    const email = form.getByRole('group', { name: 'Step 1: Email' });
    await email.getByLabel('Template').selectOption({ label: 'Welcome' });
    await email.getByLabel('From').fill(from);
    await form.getByRole('button', { name: 'Add wait step' }).click();
    const wait = form.getByRole('group', { name: 'Step 2: Wait' });
    await wait.getByLabel('Wait for').fill('1');
    await wait.getByLabel(/Unit of step 2/).selectOption('hours');
    await checkPage(page, 'journey-create');
    await form.getByRole('button', { name: 'Create journey' }).click();

    await h1('Onboarding').waitFor();
    journeyId = new URL(page.url()).pathname.split('/').pop()!;
    expect(journeyId).toMatch(/^\w+/);
    await page.getByText('Draft', { exact: true }).first().waitFor();
    await stepCard('Step 1: Send email').getByText(from).waitFor();
    await stepCard('Step 2: Wait 1 h').waitFor();
    await checkPage(page, 'journey-draft');
  });

  it('edits the steps while a draft, with a refused wait shown beside its field', async () => {
    await page.getByRole('button', { name: 'Edit steps' }).click();
    const editor = page.getByRole('form', { name: 'Edit steps' });
    const wait = editor.getByRole('group', { name: 'Step 2: Wait' });
    await wait.getByLabel('Wait for').fill('0');
    await editor.getByRole('button', { name: 'Save steps' }).click();
    await poll(() => wait.getByLabel('Wait for').getAttribute('aria-invalid')).toBe('true');
    await wait.getByLabel('Wait for').fill('1');
    await editor
      .getByRole('group', { name: 'Step 1: Email' })
      .getByLabel('Subject (optional)')
      .fill('Hi {{firstName}}');
    await checkPage(page, 'journey-edit-steps');
    await editor.getByRole('button', { name: 'Save steps' }).click();
    await stepCard('Step 1: Send email').getByText('Hi {{firstName}}').waitFor();
    const saved = await call('GET', `/v1/journeys/${journeyId}`);
    expect(saved.body.steps).toEqual([
      expect.objectContaining({ type: 'EMAIL', from, subject: 'Hi {{firstName}}' }),
      expect.objectContaining({ type: 'WAIT', seconds: 3600 }),
    ]);
  });

  it('activates after a confirm, and shows a run enrolled through the API with its history and the step’s sends', async () => {
    await page.getByRole('button', { name: 'Activate' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Activate Onboarding?' });
    await confirm.getByRole('button', { name: 'Activate journey' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await page.getByText('Steps change only while the journey is a draft or paused', { exact: false }).waitFor();

    const enrolled = await call('POST', `/v1/journeys/${journeyId}/enroll`, { email: 'ada@example.com' });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    bed.runner.wake();
    await poll(() => stat('Enrolled').textContent()).toBe('1');
    await stepCard('Step 1: Send email')
      .getByText(/^1 sent/)
      .waitFor({ timeout: 30_000 });
    await poll(() => stepCard('Step 1: Send email').textContent()).toContain('100% of enrolled');

    await page.getByRole('tab', { name: 'Runs' }).click();
    await poll(() => new URL(page.url()).searchParams.get('tab')).toBe('runs');
    const runs = page.getByRole('table', { name: 'Runs' });
    const contact = runs.getByRole('button', { name: 'ada@example.com' });
    await contact.waitFor();
    await runs.getByTitle('ACTIVE').waitFor();
    await contact.click();
    expect(await contact.getAttribute('aria-expanded')).toBe('true');
    await runs.getByText('Email queued').waitFor();
    await runs.getByText('Waiting').waitFor();
    await runs.getByRole('link', { name: 'View email' }).waitFor();
    await checkPage(page, 'journey-runs');

    // Past the wait on the test clock: the worker completes the run, and the page reads it again.
    bed.t.clock.advance(2 * 3600_000);
    bed.runner.wake();
    await runs.getByTitle('COMPLETED').waitFor({ timeout: 45_000 });
    await runs.getByText('Completed', { exact: true }).nth(1).waitFor();
    await poll(() => stat('Completed').textContent()).toBe('1');
    await page.getByLabel('Run status').selectOption('COMPLETED');
    await poll(() => new URL(page.url()).searchParams.get('status')).toBe('COMPLETED');
    await runs.getByRole('button', { name: 'ada@example.com' }).waitFor();
    await page.getByLabel('Run status').selectOption('FAILED');
    await page.getByText('No failed runs').waitFor();
  });

  it('pauses after a confirm, and lists the journey with its counters and a status filter', async () => {
    await page.getByRole('button', { name: 'Pause' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Pause Onboarding?' });
    await confirm.getByRole('button', { name: 'Pause journey' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    // A paused journey still enrols (its runs wait): from the dashboard this time.
    await page.getByRole('button', { name: 'Enrol contact' }).click();
    const enrol = page.getByRole('dialog', { name: 'Enrol a contact' });
    await enrol.getByLabel('Email address').fill('not-an-address');
    await enrol.getByRole('button', { name: 'Enrol' }).click();
    await poll(() => enrol.getByLabel('Email address').getAttribute('aria-invalid')).toBe('true');
    await enrol.getByLabel('Email address').fill('grace@example.com');
    await enrol.getByRole('button', { name: 'Enrol' }).click();
    await enrol.waitFor({ state: 'hidden' });
    await poll(() => stat('Enrolled').textContent()).toBe('2');
    await page.getByLabel('Run status').selectOption('');
    await poll(() => new URL(page.url()).searchParams.get('status')).toBeNull();
    await page.getByRole('table', { name: 'Runs' }).getByRole('button', { name: 'grace@example.com' }).waitFor();
    await page.getByRole('tab', { name: 'Steps' }).click();
    await page.getByRole('button', { name: 'Edit steps' }).waitFor();

    await page.goto(`${bed.base}/journeys`);
    const table = page.getByRole('table', { name: 'Journeys' });
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'Onboarding' }) });
    await row.getByText('Paused').waitFor();
    await checkPage(page, 'journeys');
    await page.getByLabel('Status', { exact: true }).selectOption('ACTIVE');
    await poll(() => new URL(page.url()).searchParams.get('status')).toBe('ACTIVE');
    await page.getByText('No active journeys').waitFor();
    await page.getByRole('button', { name: 'Clear filter' }).click();
    await row.waitFor();

    // Dark mode: the journey's page, accessible too.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await row.getByRole('link', { name: 'Onboarding' }).click();
    await stepCard('Step 1: Send email')
      .getByText(/^1 sent/)
      .waitFor();
    await checkPage(page, 'journey-detail-dark');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
  });

  it("shows another team's journey and an unknown id as not found", async () => {
    const other = await createTeam(bed.t.app);
    const otherCall = apiClient(bed, other.key);
    const book = await otherCall('POST', '/v1/contactBooks', { name: 'Theirs' });
    const theirs = await otherCall('POST', '/v1/journeys', {
      name: 'Their journey',
      triggerType: 'API',
      contactBookId: book.body.id,
      steps: [{ id: 'pause', type: 'WAIT', seconds: 60 }],
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    await page.goto(`${bed.base}/journeys/${theirs.body.id}`);
    await h1('Not found').waitFor();
    expect(await page.getByText('Their journey').count()).toBe(0);
    await checkPage(page, 'journey-not-found');
    await page.goto(`${bed.base}/journeys/jrn_nothing_here`);
    await h1('Not found').waitFor();
    await page.getByRole('link', { name: 'Back to Journeys' }).click();
    await h1('Journeys').waitFor();
  });
});

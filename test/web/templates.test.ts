// Templates in a real Chromium against a real Herald with its worker: created from the empty state
// (the API's field error beside the field first), edited with the preview following, Mobile width,
// a refused save shown beside its field, a block document rendered by the API, a test sent to the
// member and read from the log transport's outbox, deleted with a confirm; a deleted id and another
// team's template show the not-found page. Every page accessible (axe), photographed at 1280 and 375.
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTeam } from '../support/factory.ts';
import { checkPage, launchBrowser, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import {
  createMemberTeam,
  outboxTo,
  signIn,
  startSignedInBed,
  type MemberTeam,
  type SignedInBed,
} from './support/signed-in.ts';

let bed: SignedInBed;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;
let templateId = '';

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser] = await Promise.all([startSignedInBed(), launchBrowser()]);
  team = await createMemberTeam(bed);
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
const preview = () => page.locator('iframe[title="Email preview"]').contentFrame();

/** The subjects of the outbox's mails to `email` (the log transport keeps each message sent). */
async function subjectsSentTo(email: string): Promise<string[]> {
  const mails = await outboxTo(bed, email);
  return Promise.all(mails.map(async (m) => (await simpleParser(m.raw)).subject ?? ''));
}

describe('templates', () => {
  it('creates a template from the empty state, the API refusing an empty name beside the field', async () => {
    await page.goto(`${bed.base}/templates`);
    await h1('Templates').waitFor();
    await page.getByText('No templates yet').waitFor();
    await checkPage(page, 'templates-empty');
    await page.getByRole('button', { name: 'New template' }).click();
    const form = page.getByRole('dialog', { name: 'New template' });
    await form.getByLabel('Subject').fill('Welcome, {{firstName}}');
    await form.getByLabel('HTML').fill('<h1>Hello {{firstName}}</h1><p>First version</p>');
    await form.getByRole('button', { name: 'Create template' }).click();
    await form.getByText(/^Too small/).waitFor();
    expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'template-create');
    await form.getByLabel('Name').fill('Welcome email');
    await form.getByRole('button', { name: 'Create template' }).click();
    await h1('Welcome email').waitFor();
    templateId = new URL(page.url()).pathname.split('/').pop()!;
    expect(templateId).toMatch(/^tpl_/);
  });

  it('edits the HTML and the subject with the preview following, then saves', async () => {
    await page.getByRole('region', { name: 'Preview' }).waitFor();
    await poll(() => preview().getByText('First version').count()).toBe(1);
    // The variable is found and its sample fills the preview (subject and body).
    await page.getByLabel('firstName').fill('Ada');
    await poll(() => preview().getByText('Hello Ada').count()).toBe(1);
    await page.getByRole('region', { name: 'Preview' }).getByText('Welcome, Ada').waitFor();
    await page.getByRole('textbox', { name: 'HTML' }).fill('<h1>Hello {{firstName}}</h1><p>Second version</p>');
    await poll(() => preview().getByText('Second version').count()).toBe(1);
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Template saved').waitFor();
    await page.getByText('Unsaved changes').waitFor({ state: 'detached' });
    const stored = await bed.t.app.inject({
      method: 'GET',
      url: `/api/v1/templates/${templateId}`,
      headers: { authorization: `Bearer ${team.key}` },
    });
    expect(stored.json().html).toContain('Second version');

    // Mobile width, kept in the URL.
    const frame = page.locator('iframe[title="Email preview"]');
    expect((await frame.boundingBox())!.width).toBeGreaterThanOrEqual(600);
    await page.getByRole('button', { name: 'Mobile' }).click();
    await poll(() => new URL(page.url()).searchParams.get('width')).toBe('mobile');
    await poll(async () => Math.round((await frame.boundingBox())!.width)).toBe(375);
    expect(await page.getByRole('button', { name: 'Mobile' }).getAttribute('aria-pressed')).toBe('true');
    await checkPage(page, 'template-editor');
  });

  it("shows the API's refusal beside the field, and a block document rendered by the API", async () => {
    const subject = page.getByLabel('Subject');
    await subject.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    const error = page.getByText(/^Too small/);
    await error.waitFor();
    expect(await subject.getAttribute('aria-invalid')).toBe('true');
    const errorId = await error.getAttribute('id');
    expect(await subject.getAttribute('aria-describedby')).toContain(errorId);
    await subject.fill('Welcome, {{firstName}}');
    await error.waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Blocks' }).click();
    await poll(() => new URL(page.url()).searchParams.get('body')).toBe('blocks');
    const documentField = page.getByLabel('Block document (JSON)');
    const blocks = (href: string) =>
      JSON.stringify({
        version: 1,
        blocks: [
          { type: 'heading', level: 1, text: 'Blocks for {{firstName}}' },
          { type: 'button', label: 'Open', href },
        ],
      });
    await documentField.fill(blocks('javascript:alert(1)'));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^content\.blocks\[1\]\.href: /).waitFor();
    expect(await documentField.getAttribute('aria-invalid')).toBe('true');
    await documentField.fill(blocks('https://example.com/open'));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Rendered by the API from the saved blocks.').waitFor();
    await poll(() => preview().getByText('Blocks for Ada').count()).toBe(1);
  });

  it('sends a test to the member through the template, read from the outbox', async () => {
    await page.getByRole('button', { name: 'Send test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test' });
    await dialog.getByText(team.ownerEmail).waitFor();
    await checkPage(page, 'template-send-test');
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await page.getByText(`Test sent to ${team.ownerEmail}`).waitFor();
    await poll(async () => {
      bed.runner.wake();
      return subjectsSentTo(team.ownerEmail);
    }).toContain('Welcome, Ada');
  });

  it('works in dark mode', async () => {
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.getByRole('region', { name: 'Preview' }).waitFor();
    await checkPage(page, 'template-editor-dark');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
  });

  it('lists the template and deletes it after a confirm; its page is then not found', async () => {
    await page.goto(`${bed.base}/templates`);
    const table = page.getByRole('table', { name: 'Templates' });
    await table.getByRole('link', { name: 'Welcome email' }).waitFor();
    await checkPage(page, 'templates');
    await table.getByRole('button', { name: 'Delete template Welcome email' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete template Welcome email?' });
    await checkPage(page, 'template-delete');
    await confirm.getByRole('button', { name: 'Delete template' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByText('No templates yet').waitFor();
    await page.goto(`${bed.base}/templates/${templateId}`);
    await h1('Not found').waitFor();
    await checkPage(page, 'template-not-found');
  });

  it("shows another team's template as not found, never its content", async () => {
    const other = await createTeam(bed.t.app);
    const created = await bed.t.app.inject({
      method: 'POST',
      url: '/api/v1/templates',
      headers: { authorization: `Bearer ${other.key}` },
      payload: { name: 'Secret plans', subject: 'Theirs', html: '<p>Not yours</p>' },
    });
    expect(created.statusCode).toBe(200);
    await page.goto(`${bed.base}/templates/${created.json().id}`);
    await h1('Not found').waitFor();
    expect(await page.getByText('Secret plans').count()).toBe(0);
  });
});

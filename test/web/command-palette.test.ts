// The ⌘K / Ctrl+K palette in a real Chromium against a real Herald: opened with the keyboard, the
// pages filtered as you type, arrows and Enter to go, Escape to close with focus back where it was,
// a pasted template id opening its editor, the header's Search button at 375 px. Every state
// accessible (axe) and photographed at 1280 and 375 px.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkPage, launchBrowser, MOBILE, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import { createMemberTeam, signIn, startSignedInBed, type MemberTeam, type SignedInBed } from './support/signed-in.ts';

let bed: SignedInBed;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;

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
const palette = () => page.getByRole('dialog', { name: 'Command palette' });
const input = () => palette().getByRole('combobox', { name: 'Go to' });
const options = () => palette().getByRole('option');

describe('the command palette', () => {
  it('opens with Ctrl+K, filters the pages as you type, and goes with the arrows and Enter', async () => {
    await h1('Overview').waitFor();
    await page.keyboard.press('ControlOrMeta+k');
    await input().waitFor();
    await poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Go to');
    expect(await options().count()).toBeGreaterThan(10);
    await checkPage(page, 'command-palette');

    await page.keyboard.type('te');
    await poll(() => options().first().textContent()).toContain('Templates');
    expect(await options().nth(1).textContent()).toContain('Team');
    expect(await options().first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await poll(() => options().nth(1).getAttribute('aria-selected')).toBe('true');
    const active = await input().getAttribute('aria-activedescendant');
    expect(active).toBe(await options().nth(1).getAttribute('id'));
    await page.keyboard.press('Enter');
    await palette().waitFor({ state: 'detached' });
    await h1('Team').waitFor();
    expect(new URL(page.url()).pathname).toBe('/team');
  });

  it('says when nothing matches, and closes with Escape', async () => {
    await page.keyboard.press('ControlOrMeta+k');
    await input().fill('zzz');
    await palette().getByText('No page matches “zzz”.').waitFor();
    expect(await options().count()).toBe(0);
    await page.keyboard.press('Escape');
    await palette().waitFor({ state: 'detached' });
    await h1('Team').waitFor();
  });

  it('opens a template from its pasted id', async () => {
    const created = await bed.t.app.inject({
      method: 'POST',
      url: '/api/v1/templates',
      headers: { authorization: `Bearer ${team.key}` },
      payload: { name: 'Receipt', subject: 'Your receipt', html: '<p>Thanks</p>' },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().id as string;
    await page.keyboard.press('ControlOrMeta+k');
    await input().fill(id);
    await poll(() => options().first().textContent()).toContain(`Open template ${id}`);
    await page.keyboard.press('Enter');
    await h1('Receipt').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/templates/${id}`);
  });

  it('opens from the Search button at 375 px and goes to a page by click', async () => {
    await page.setViewportSize(MOBILE);
    try {
      await page.getByRole('button', { name: /^Search/ }).click();
      await input().fill('dom');
      await checkPage(page, 'command-palette-filtered');
      await options().filter({ hasText: 'Domains' }).click();
      await h1('Domains').waitFor();
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});

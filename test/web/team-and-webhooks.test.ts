// Webhooks and Team in a real Chromium against a real Herald with its worker: a webhook pointed at a
// plain HTTP receiver on loopback (HERALD_WEBHOOK_ALLOW_CIDRS covers it), its secret shown once, a
// test event sent and its call seen; an API key created, shown once, used for a real request, revoked
// and refused; a suppression added, filtered and removed; the audit log naming the key's creation.
// Every page accessible (axe) and photographed at 1280 and 375 px.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpsReceiver } from '../support/https-receiver.ts';
import { checkPage, launchBrowser, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import { adminRequest } from '../support/factory.ts';
import { createMemberTeam, signIn, startSignedInBed, type MemberTeam, type SignedInBed } from './support/signed-in.ts';

let bed: SignedInBed;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;
let receiver: HttpsReceiver;

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser, receiver] = await Promise.all([
    startSignedInBed({ webhookAllowCidrs: ['127.0.0.0/8'] }),
    launchBrowser(),
    HttpsReceiver.start({ tls: false }),
  ]);
  receiver.respondWith({ status: 200 });
  team = await createMemberTeam(bed);
  const { context } = await newContext(browser);
  page = await context.newPage();
  await signIn(bed, page, team.ownerEmail);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await bed?.close();
});

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
afterAll(() => vi.resetConfig());

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const whoami = (key: string) =>
  fetch(`${bed.base}/api/v1/whoami`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

describe('webhooks', () => {
  it('adds a webhook from the empty state, shows its secret once, sends a test and sees the call', async () => {
    const url = `http://127.0.0.1:${receiver.port}/hook`;
    await page.goto(`${bed.base}/webhooks`);
    await h1('Webhooks').waitFor();
    await page.getByText('No webhooks yet').waitFor();
    await checkPage(page, 'webhooks-empty');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('dialog', { name: 'Add a webhook' });
    // The API's field error sits beside the field.
    await form.getByLabel('Endpoint URL').fill('http://10.0.0.1/hook');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await form.getByText(/^url host must be a name/).waitFor();
    expect(await form.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Endpoint URL').fill(url);
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const secretDialog = page.getByRole('dialog', { name: /signing secret/ });
    const secret = await secretDialog.getByLabel('signing secret', { exact: true }).textContent();
    expect(secret).toMatch(/^whsec_/);
    await checkPage(page, 'webhook-secret');
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await h1(url).waitFor();
    expect(await page.getByText(secret!).count()).toBe(0);
    await page.getByText('No calls yet').waitFor();

    await page.getByRole('button', { name: 'Send test' }).click();
    const calls = page.getByRole('table', { name: 'Calls' });
    await calls.getByRole('button', { name: 'webhook.test' }).waitFor();
    bed.runner.wake();
    await calls.getByText('Delivered').waitFor({ timeout: 30_000 });
    expect(receiver.requests[0]?.path).toBe('/hook');
    await checkPage(page, 'webhook-detail');

    await calls.getByRole('button', { name: 'webhook.test' }).click();
    const panel = page.getByRole('dialog', { name: /webhook\.test/ });
    await panel.getByRole('region', { name: 'Payload' }).getByText('"webhook.test"').waitFor();
    await poll(() => new URL(page.url()).searchParams.get('call')).toBeTruthy();
    await checkPage(page, 'webhook-call');
    await page.keyboard.press('Escape');
    await poll(() => new URL(page.url()).searchParams.get('call')).toBeNull();
    await page.getByText(/^Last success [^—]/).waitFor();

    await page.goto(`${bed.base}/webhooks`);
    await page.getByRole('table', { name: 'Webhooks' }).getByRole('link', { name: url }).waitFor();
    await checkPage(page, 'webhooks');
  });
});

describe('team', () => {
  it('creates an API key shown once, uses it, revokes it and sees it refused', async () => {
    await page.goto(`${bed.base}/team?tab=keys`);
    await h1('Team').waitFor();
    await page.getByRole('table', { name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const form = page.getByRole('dialog', { name: 'Create an API key' });
    await form.getByLabel('Name').fill('ci-browser');
    await form.getByLabel('Kind').selectOption('full');
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const key = (await shown.getByLabel('API key', { exact: true }).textContent())!;
    expect(await shown.getByLabel('curl with the key', { exact: true }).textContent()).toContain(key);
    await checkPage(page, 'team-key-created');
    await shown.getByRole('button', { name: 'Done' }).click();
    expect(await whoami(key)).toBe(200);

    const table = page.getByRole('table', { name: 'API keys' });
    await table.getByText('ci-browser').waitFor();
    await checkPage(page, 'team-keys');
    await table.getByRole('button', { name: 'Revoke key ci-browser' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke key ci-browser?' });
    const revoke = confirm.getByRole('button', { name: 'Revoke key' });
    expect(await revoke.isDisabled()).toBe(true);
    await confirm.getByLabel(/to confirm/).fill('ci-browser');
    await revoke.click();
    await confirm.waitFor({ state: 'hidden' });
    await table.getByText('ci-browser').waitFor({ state: 'detached' });
    await poll(() => whoami(key)).toBe(401);
  });

  it('adds a suppression, filters by it and removes it', async () => {
    const address = `blocked-${team.id}@example.com`;
    await page.getByRole('tab', { name: 'Suppressions' }).click();
    await poll(() => new URL(page.url()).searchParams.get('tab')).toBe('suppressions');
    await page.getByText('No suppressed addresses').waitFor();
    await page.getByLabel('Address to suppress').fill(address);
    await page.getByRole('button', { name: 'Add suppression' }).click();
    const table = page.getByRole('table', { name: 'Suppressions' });
    await table.getByText(address).waitFor();
    await page.getByLabel('Filter by email').fill(address);
    await poll(() => new URL(page.url()).searchParams.get('email')).toBe(address);
    await table.getByText(address).waitFor();
    await checkPage(page, 'team-suppressions');
    await table.getByRole('button', { name: `Remove ${address}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText(`No suppression matches “${address}”`).waitFor();
  });

  it('lists the key creation in the audit log', async () => {
    await page.goto(`${bed.base}/team?tab=audit`);
    const table = page.getByRole('table', { name: 'Audit log' });
    await table.getByText('api_key.created').waitFor();
    await table.getByText('suppression.removed').waitFor();
    await checkPage(page, 'team-audit');
    // Dark mode: the webhook detail with its calls, accessible too.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.goto(`${bed.base}/webhooks`);
    await page.getByRole('table', { name: 'Webhooks' }).getByRole('link').first().click();
    await page.getByRole('table', { name: 'Calls' }).getByText('Delivered').waitFor();
    await checkPage(page, 'webhook-detail-dark');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
  });

  it("shows a member who is not an admin the API's refusal, not a blank page", async () => {
    const email = `member-${team.id}@example.com`;
    await adminRequest(bed.t.app, 'POST', `/teams/${team.id}/members`, { email, role: 'MEMBER' });
    const { context } = await newContext(browser);
    try {
      const member = await context.newPage();
      await signIn(bed, member, email);
      for (const tab of ['keys', 'suppressions', 'audit']) {
        await member.goto(`${bed.base}/team?tab=${tab}`);
        await member.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
        await member.getByRole('alert').getByText(/^403 /).waitFor();
      }
      await checkPage(member, 'team-member-refused');
    } finally {
      await context.close();
    }
  });
});

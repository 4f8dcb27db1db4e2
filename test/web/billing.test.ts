// Billing in a real Chromium against a real Herald: an admin whose wallet cannot pay Pro sees the
// API's 402 in the Change plan dialog; after a top-up (admin API) moves Free -> Pro from the wallet
// and sees the plan, the Pro month in the ledger and its receipt; every tab; back to Free through
// the confirm dialog; dark mode; Pro by card goes to the fake Stripe Checkout and comes back Pro once
// Stripe's signed event lands; an unknown receipt is not found; a member who is not an admin sees a
// plain sentence and the page asks for no billing read. Every page accessible (axe) at 1280 and 375 px.
import type { Browser, Page } from 'playwright-core';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminRequest } from '../support/factory.ts';
import { FakeStripeCheckout } from '../support/fake-stripe-checkout.ts';
import { STRIPE_TEST_SECRET_KEY } from '../support/fake-stripe.ts';
import { startBillingBed, launchBrowserWithOrigin } from './support/billing-bed.ts';
import { checkPage, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import { createMemberTeam, signIn, type MemberTeam, type SignedInBed } from './support/signed-in.ts';

const HOOK_SECRET = 'whsec_test_herald_browser_0123';
let bed: SignedInBed;
let browser: Browser;
let stripe: FakeStripeCheckout;
let page: Page;
let team: MemberTeam;

beforeAll(async () => {
  ensureDashboardBuilt();
  stripe = await FakeStripeCheckout.start();
  [bed, browser] = await Promise.all([
    startBillingBed({
      stripe: { secretKey: STRIPE_TEST_SECRET_KEY, apiUrl: stripe.url, timeoutMs: 5_000, webhookSecret: HOOK_SECRET },
    }),
    launchBrowserWithOrigin(),
  ]);
  team = await createMemberTeam(bed);
  const { context } = await newContext(browser);
  page = await context.newPage();
  await signIn(bed, page, team.ownerEmail);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await bed?.close();
  await stripe?.close();
});

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
reportPageOnFailure(() => page);
afterAll(() => vi.resetConfig());

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const h1 = (p: Page, name: string) => p.getByRole('heading', { level: 1, name });
const topUp = (teamId: number, amountMinor: number) =>
  adminRequest(bed.t.app, 'POST', `/teams/${teamId}/wallet/top-ups`, { amountMinor });
const planStat = (p: Page) => p.getByRole('definition').filter({ hasText: /^(Free|Pro)$/ });

describe('billing', () => {
  it("shows the wallet's shortfall when it cannot pay Pro, and nothing changes", async () => {
    await topUp(team.id, 500); // $5.00 of a $20.00 month
    await page.goto(`${bed.base}/billing`);
    await h1(page, 'Billing').waitFor();
    await page.getByText('$5.00').first().waitFor();
    await page.getByRole('table', { name: 'Ledger' }).getByText('Top-up').waitFor();
    await page.getByRole('button', { name: 'Change plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move to Pro' });
    await dialog.getByText('Charged now: $20.00 from the wallet').waitFor();
    await dialog.getByRole('button', { name: 'Pay $20.00 and move to Pro' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/cannot pay the Pro month \(\$20\.00\).*The wallet holds \$5\.00\./)
      .waitFor();
    await checkPage(page, 'billing-402');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await planStat(page).textContent()).toBe('Free');
  });

  it('moves Free -> Pro from the wallet after a top-up, and shows the plan, the ledger row and its receipt', async () => {
    await topUp(team.id, 2000);
    await page.reload();
    await page.getByText('$25.00').first().waitFor();
    await page.getByRole('button', { name: 'Change plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move to Pro' });
    await checkPage(page, 'billing-change-plan');
    await dialog.getByRole('button', { name: 'Pay $20.00 and move to Pro' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await poll(() => planStat(page).textContent()).toBe('Pro');
    await page.getByText(/^Paid from the wallet · renews/).waitFor();
    const ledger = page.getByRole('table', { name: 'Ledger' });
    const row = ledger.getByRole('row').filter({ hasText: 'Pro month' });
    await row.getByText('-$20.00').waitFor();
    await row.getByText('$5.00').waitFor();
    await checkPage(page, 'billing');

    await row.getByRole('button', { name: /^Receipt / }).click();
    const receipt = page.getByRole('dialog', { name: 'Receipt' });
    await receipt.getByText(/^HRD-\d{6}$/).waitFor();
    await poll(() => new URL(page.url()).searchParams.get('receipt')).toBeTruthy();
    await checkPage(page, 'billing-receipt');
    await page.keyboard.press('Escape');
    await poll(() => new URL(page.url()).searchParams.get('receipt')).toBeNull();

    // The ledger filtered by kind, in the URL.
    await page.getByLabel('Kind').selectOption('TOP_UP');
    await poll(() => new URL(page.url()).searchParams.get('type')).toBe('TOP_UP');
    await poll(() => ledger.getByRole('row').filter({ hasText: 'Pro month' }).count()).toBe(0);
  });

  it('shows receipts, invoices, usage and pricing in tabs kept in the URL', async () => {
    await page.getByRole('tab', { name: 'Receipts' }).click();
    await poll(() => new URL(page.url()).searchParams.get('tab')).toBe('receipts');
    await page
      .getByRole('table', { name: 'Receipts' })
      .getByText(/^HRD-\d{6}$/)
      .waitFor();
    await checkPage(page, 'billing-receipts');
    await page.getByRole('tab', { name: 'Invoices' }).click();
    await page.getByText('No invoices').waitFor();
    await page.getByRole('tab', { name: 'Usage' }).click();
    await page.getByRole('meter', { name: 'Emails today' }).waitFor();
    await checkPage(page, 'billing-usage');
    await page.getByRole('tab', { name: 'Pricing' }).click();
    await page.getByText(/^Pro: \$20\.00 a month/).waitFor();
    await checkPage(page, 'billing-pricing');
  });

  it('moves back to Free after a confirm that says the month is not refunded', async () => {
    await page.goto(`${bed.base}/billing`);
    await poll(() => planStat(page).textContent()).toBe('Pro');
    await page.getByRole('button', { name: 'Change plan' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Move to the Free plan?' });
    await confirm.getByText(/is not refunded/).waitFor();
    await checkPage(page, 'billing-to-free');
    await confirm.getByRole('button', { name: 'Move to Free' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await poll(() => planStat(page).textContent()).toBe('Free');
    // Dark mode: the page with its ledger, accessible too.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.getByRole('table', { name: 'Ledger' }).getByText('Pro month').waitFor();
    await checkPage(page, 'billing-dark');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
  });

  it('shows the not-found state for a receipt the team does not have', async () => {
    await page.goto(`${bed.base}/billing?receipt=rcpt_nope`);
    await page
      .getByRole('dialog', { name: 'Receipt' })
      .getByText('This receipt does not exist in this team.')
      .waitFor();
  });

  it("pays Pro by card: Stripe Checkout, then back on Pro once Stripe's signed event lands", async () => {
    const other = await createMemberTeam(bed);
    const { context } = await newContext(browser);
    try {
      const admin = await context.newPage();
      await signIn(bed, admin, other.ownerEmail);
      await admin.goto(`${bed.base}/billing`);
      await admin.getByText('No wallet activity yet').waitFor();
      await checkPage(admin, 'billing-empty');
      await admin.getByRole('button', { name: 'Change plan' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Move to Pro' });
      await dialog.getByLabel(/A card, through Stripe/).check();
      await dialog.getByText(/Stripe asks for the card and takes \$20\.00 a month/).waitFor();
      await dialog.getByRole('button', { name: 'Continue to Stripe' }).click();
      await h1(admin, 'Fake Stripe Checkout').waitFor();
      const session = stripe.sessions.find((s) => admin.url() === s.url)!;
      expect(session.client_reference_id).toBe(String(other.id));

      // Stripe takes the card, posts its signed event to Herald, and sends the browser back.
      const { events } = stripe.complete(session.id);
      const signature = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({
        payload: events.completed,
        secret: HOOK_SECRET,
        timestamp: Math.floor(bed.t.clock.now().getTime() / 1000),
      });
      const hook = await fetch(`${bed.base}/hooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: events.completed,
      });
      expect(hook.status).toBe(200);
      await admin.goto(session.success_url);
      await admin.getByText('Payment confirmed by Stripe: the team is on Pro, paid by card.').waitFor();
      await poll(() => planStat(admin).textContent()).toBe('Pro');
      await admin.getByText(/^Paid by card \(Stripe\) · active/).waitFor();
      await checkPage(admin, 'billing-card');
    } finally {
      await context.close();
    }
  });

  it('shows a member who is not an admin a plain sentence, and asks for no billing read', async () => {
    const email = `member-${team.id}@example.com`;
    await adminRequest(bed.t.app, 'POST', `/teams/${team.id}/members`, { email, role: 'MEMBER' });
    const { context } = await newContext(browser);
    try {
      const member = await context.newPage();
      await signIn(bed, member, email);
      const billingReads: string[] = [];
      member.on('request', (request) => {
        if (new URL(request.url()).pathname.includes('/v1/billing')) billingReads.push(request.url());
      });
      await member.goto(`${bed.base}/billing`);
      await h1(member, 'Billing').waitFor();
      await member.getByText('Only team admins can see billing.').waitFor();
      await checkPage(member, 'billing-member');
      expect(billingReads).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

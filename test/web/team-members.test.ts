// The Team page's Members tab in a real Chromium against a real Herald with its worker: the owner
// invites a member (the API's field error beside the field first), the invitee signs in with the
// link the invite mailed and sees the team; the owner changes their role (the last owner's refusal
// shown beside the field), removes them after a confirm, and the audit log names each change; a
// member who is not an admin sees the API's 403 on the tab. Every page accessible (axe) and
// photographed at 1280 and 375 px.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkPage, launchBrowser, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import {
  createMemberTeam,
  signIn,
  signInLinkFor,
  startSignedInBed,
  type MemberTeam,
  type SignedInBed,
} from './support/signed-in.ts';

let bed: SignedInBed;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser] = await Promise.all([startSignedInBed(), launchBrowser()]);
  team = await createMemberTeam(bed);
  page = await (await loadedContext()).newPage();
  await signIn(bed, page, team.ownerEmail);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await bed?.close();
});

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
afterAll(() => vi.resetConfig());

/** A fresh context with waits for a loaded 2-core machine (several browsers at once): 60 s, not 20. */
async function loadedContext() {
  const { context } = await newContext(browser);
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(60_000);
  return context;
}

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const members = () => page.getByRole('table', { name: 'Members' });

/** Another browser context signed in as `email` through `link` (an invite's sign-in mail). */
async function openAs(link: string): Promise<Page> {
  const other = await (await loadedContext()).newPage();
  await other.goto(link);
  await other.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  return other;
}

describe('members', () => {
  const email = () => `teammate-${team.id}@example.com`;

  it('invites a member, who gets a sign-in link that works', async () => {
    await page.goto(`${bed.base}/team`);
    await page.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Members' }).getAttribute('aria-selected')).toBe('true');
    await members().getByText(team.ownerEmail).waitFor();
    await members().getByText('You', { exact: true }).waitFor();
    await page.getByText(/^1 of 5 members on this plan$/).waitFor();
    await checkPage(page, 'team-members');

    await page.getByRole('button', { name: 'Invite member' }).click();
    const form = page.getByRole('dialog', { name: 'Invite a member' });
    // The API's field error sits beside the field.
    await form.getByLabel('Email').fill('not-an-address');
    await form.getByRole('button', { name: 'Invite' }).click();
    await form.getByText('must be an email address').waitFor();
    expect(await form.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'team-member-invite-error');
    await form.getByLabel('Email').fill(email());
    await form.getByLabel('Name').fill('Grace Hopper');
    await form.getByLabel('Role').selectOption('ADMIN');
    await form.getByRole('button', { name: 'Invite' }).click();
    await form.waitFor({ state: 'hidden' });
    const row = members().getByRole('row').filter({ hasText: email() });
    await row.getByText('Grace Hopper').waitFor();
    await row.getByRole('button', { name: `Role of ${email()}: Admin. Change` }).waitFor();
    await page.getByText(/^2 of 5 members on this plan$/).waitFor();

    // An address already a member: the API's 409 beside the email field.
    await page.getByRole('button', { name: 'Invite member' }).click();
    await form.getByLabel('Email').fill(email().toUpperCase());
    await form.getByRole('button', { name: 'Invite' }).click();
    await form.getByText(/is already a member of this team$/).waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });

    const invitee = await openAs(await signInLinkFor(bed, email()));
    try {
      await invitee.goto(`${bed.base}/team`);
      await invitee.getByRole('table', { name: 'Members' }).getByText(team.ownerEmail).waitFor();
    } finally {
      await invitee.context().close();
    }
  });

  it('changes a role; the last owner stays one, the refusal beside the field', async () => {
    await members()
      .getByRole('button', { name: `Role of ${email()}: Admin. Change` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Change the role of ${email()}` });
    expect(await dialog.getByLabel('Role').inputValue()).toBe('ADMIN');
    await dialog.getByLabel('Role').selectOption('MEMBER');
    await dialog.getByRole('button', { name: 'Save role' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await members()
      .getByRole('button', { name: `Role of ${email()}: Member. Change` })
      .waitFor();

    await members()
      .getByRole('button', { name: `Role of ${team.ownerEmail}: Owner. Change` })
      .click();
    const own = page.getByRole('dialog', { name: `Change the role of ${team.ownerEmail}` });
    await own.getByLabel('Role').selectOption('ADMIN');
    await own.getByRole('button', { name: 'Save role' }).click();
    await own.getByText(/is the team's last owner; make another member an owner first$/).waitFor();
    expect(await own.getByLabel('Role').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'team-member-role-error');
    await own.getByRole('button', { name: 'Cancel' }).click();
    await own.waitFor({ state: 'hidden' });
  });

  it("shows a member who is not an admin the API's 403 on the tab", async () => {
    const context = await loadedContext();
    try {
      const member = await context.newPage();
      await signIn(bed, member, email());
      await member.goto(`${bed.base}/team`);
      await member.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
      await member
        .getByRole('alert')
        .getByText(/^403 FORBIDDEN$/)
        .waitFor();
      await checkPage(member, 'team-members-refused');
    } finally {
      await context.close();
    }
  });

  it('removes the member after a confirm; the audit log names each change', async () => {
    await members()
      .getByRole('button', { name: `Remove ${email()}` })
      .click();
    const confirm = page.getByRole('alertdialog', { name: `Remove ${email()}?` });
    await checkPage(page, 'team-member-remove');
    await confirm.getByRole('button', { name: 'Remove member' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await members().getByText(email()).waitFor({ state: 'detached' });
    await page.getByText(/^1 of 5 members on this plan$/).waitFor();

    await page.getByRole('tab', { name: 'Audit log' }).click();
    await poll(() => new URL(page.url()).searchParams.get('tab')).toBe('audit');
    const log = page.getByRole('table', { name: 'Audit log' });
    for (const action of ['member.invited', 'member.role_changed', 'member.removed'])
      await log.getByText(action, { exact: true }).waitFor();
    expect(await log.getByText(email(), { exact: true }).count()).toBe(3);
  });
});

// Inboxes in a real Chromium against a real Herald with its worker and its inbound SMTP listener:
// the empty state before the operator makes an inbox (admin API), then the inbox listed with its
// address before any mail (GET /v1/inbound/inboxes) and its own page saying so; mail sent to it
// over SMTP (an HTML message with a script, a remote image and an attachment; a reply in the same
// thread; another conversation), then the inbox list, the conversations, the thread, the sanitised
// HTML in its sandboxed frame, the new-part and full text, the attachment's signed link, the raw
// original downloaded; the panes one at a time at 375 px; an unknown inbox, a deleted one and
// another team's alike not found. Every page accessible (axe) and photographed at 1280 and 375 px,
// the inbox in dark mode too.
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { crlf, sendRaw } from '../inboxes/support.ts';
import { adminRequest } from '../support/factory.ts';
import { checkPage, DESKTOP, launchBrowser, MOBILE, newContext, reportPageOnFailure } from './support/browser.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';
import { startInboxBed, type InboxBed } from './support/messaging-bed.ts';
import { createMemberTeam, signIn, type MemberTeam } from './support/signed-in.ts';

let bed: InboxBed;
let browser: Browser;
let page: Page;
reportPageOnFailure(() => page);
let team: MemberTeam;
let inbox: { id: string; name: string; address: string };

beforeAll(async () => {
  ensureDashboardBuilt();
  [bed, browser] = await Promise.all([startInboxBed(), launchBrowser()]);
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
const param = (name: string) => new URL(page.url()).searchParams.get(name);

let counter = 0;
function createInbox(teamId: number, name: string, local: string) {
  const address = `${local}-${teamId}-${++counter}@${bed.t.deps.config.mailDomain}`;
  return adminRequest(bed.t.app, 'POST', `/teams/${teamId}/inboxes`, { name, address }) as Promise<typeof inbox>;
}

/** One message over SMTP to the listener, recorded before this returns; a second apart (the clock stands still). */
async function deliver(to: string, raw: string): Promise<void> {
  bed.t.clock.advance(1_000);
  const answer = await sendRaw(bed.listener.port, { from: 'ada@sender.test', to }, crlf(raw));
  expect(answer.accepted).toEqual([to]);
  await bed.listener.service.drained();
}

const damaged = (to: string) => `From: Ada Customer <ada@sender.test>
To: ${to}
Subject: Order 1234 arrived damaged
Date: Wed, 25 Nov 2026 10:00:00 +0000
Message-ID: <order-1234-${to}@sender.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="outer"

--outer
Content-Type: multipart/alternative; boundary="inner"

--inner
Content-Type: text/plain; charset=utf-8

The box was crushed.
--inner
Content-Type: text/html; charset=utf-8

<p>The <b>box</b> was crushed.</p><script>document.title = 'owned'</script><img src="https://tracker.example/pixel.png" alt="pixel">
--inner--
--outer
Content-Type: text/plain; name="notes.txt"
Content-Disposition: attachment; filename="notes.txt"

Order 1234, box 2 of 3.
--outer--
`;

const reply = (to: string) => `From: Ada Customer <ada@sender.test>
To: ${to}
Subject: Re: Order 1234 arrived damaged
Date: Wed, 25 Nov 2026 11:00:00 +0000
Message-ID: <order-1234-reply-${to}@sender.test>
In-Reply-To: <order-1234-${to}@sender.test>
References: <order-1234-${to}@sender.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Any news on a replacement?

On Wed, 25 Nov 2026 at 10:30, Support <support@example.com> wrote:
> We are looking into it.
`;

const invoices = (to: string) => `From: Grace Buyer <grace@sender.test>
To: ${to}
Subject: Question about invoices
Date: Wed, 25 Nov 2026 12:00:00 +0000
Message-ID: <invoices-${to}@sender.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Where do I find last month's invoice?
`;

describe('inboxes', () => {
  it('teaches how an inbox is made, then lists one with its address before any mail arrives', async () => {
    await page.goto(`${bed.base}/inboxes`);
    await h1('Inboxes').waitFor();
    await page.getByText('No inboxes yet').waitFor();
    await page.getByText(`herald admin inboxes create --team ${team.id}`).waitFor();
    await checkPage(page, 'inboxes-empty');

    inbox = await createInbox(team.id, 'Support', 'support');
    await page.reload();
    const table = page.getByRole('table', { name: 'Inboxes' });
    const row = table.getByRole('row').filter({ hasText: 'Support' });
    // In its own column from 640 px, under the name below.
    await row.getByText(inbox.address).filter({ visible: true }).waitFor();
    await row.getByText('No mail yet').waitFor();
    await row.getByRole('button', { name: 'Copy the address of Support' }).waitFor();
    await page.setViewportSize(MOBILE);
    try {
      await row.getByText(inbox.address).filter({ visible: true }).waitFor();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    await checkPage(page, 'inboxes-no-mail');

    await table.getByRole('link', { name: 'Support' }).click();
    await h1('Support').waitFor();
    await page.getByText('No mail received yet').waitFor();
    await page.getByRole('button', { name: 'Copy inbox address' }).waitFor();
    expect(await page.getByText(inbox.address).count()).toBeGreaterThan(0);
    await checkPage(page, 'inbox-no-mail');
  });

  it('lists the inbox the mail reached and threads its conversations', async () => {
    await deliver(inbox.address, damaged(inbox.address));
    await deliver(inbox.address, reply(inbox.address));
    await deliver(inbox.address, invoices(inbox.address));

    await page.goto(`${bed.base}/inboxes`);
    const table = page.getByRole('table', { name: 'Inboxes' });
    await table.getByRole('link', { name: 'Support' }).waitFor();
    // The newest mail arrived a moment ago (the test clock stands still between deliveries).
    const row = table.getByRole('row').filter({ hasText: 'Support' });
    await row.getByRole('cell').nth(2).locator('time').waitFor();
    expect(await row.getByText('No mail yet').count()).toBe(0);
    await checkPage(page, 'inboxes');

    await table.getByRole('link', { name: 'Support' }).click();
    await h1('Support').waitFor();
    const conversations = page.getByRole('navigation', { name: 'Conversations' });
    await conversations.getByRole('link', { name: /Question about invoices/ }).waitFor();
    // The newest conversation opens by itself from 768 px.
    await page.getByRole('heading', { level: 2, name: 'Question about invoices' }).waitFor();
    const thread = conversations.getByRole('link', { name: /Order 1234 arrived damaged/ });
    await thread.getByText('2 messages').waitFor();
    await thread.click();
    await poll(() => param('conversation')).toBeTruthy();
    await page.getByRole('heading', { level: 2, name: 'Order 1234 arrived damaged' }).waitFor();
  });

  it('shows the reply text new part first, then the whole of it', async () => {
    // The newest message of the thread, the reply, is the open one: it has no HTML part.
    await page.getByText('This message has no HTML part.').waitFor();
    await page.getByRole('tab', { name: 'Text' }).click();
    await poll(() => param('tab')).toBe('text');
    const text = page.getByRole('tabpanel', { name: 'Text' });
    await text.getByText('Any news on a replacement?').waitFor();
    expect(await text.getByText('We are looking into it.').count()).toBe(0);
    await text.getByRole('button', { name: 'Full text' }).click();
    await poll(() => param('text')).toBe('full');
    await text.getByText(/We are looking into it\./).waitFor();
  });

  it('shows the first message sanitised in its sandbox, its attachment and its raw original', async () => {
    await page.getByRole('button', { name: 'Ada Customer' }).click();
    await poll(() => param('message')).toMatch(/^inmsg_/);
    const messageId = param('message')!;
    await page.getByRole('tab', { name: 'HTML' }).click();
    const frame = page.locator('iframe[title="Email preview"]');
    expect(await frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    const srcdoc = (await frame.getAttribute('srcdoc'))!;
    expect(srcdoc).not.toContain('<script');
    expect(srcdoc).toContain('data-remote-src="https://tracker.example/pixel.png"');
    await page.frameLocator('iframe[title="Email preview"]').getByText('was crushed').waitFor();
    expect(await page.title()).not.toBe('owned');
    await page.getByRole('button', { name: 'Load images' }).click();
    await poll(async () => (await frame.getAttribute('srcdoc')) ?? '').toContain(
      'src="https://tracker.example/pixel.png"',
    );
    await page
      .getByText(/^(Clean|Suspicious)$/)
      .first()
      .waitFor();
    await checkPage(page, 'inbox-message');

    await page.getByRole('tab', { name: 'Attachments (1)' }).click();
    const link = page.getByRole('link', { name: 'notes.txt' });
    const href = (await link.getAttribute('href'))!;
    expect(href.startsWith(`${bed.base}/inbound/attachments/`)).toBe(true);
    const attachment = await fetch(href);
    expect(attachment.status).toBe(200);
    expect((await attachment.text()).trim()).toBe('Order 1234, box 2 of 3.');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download raw (.eml)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${messageId}.eml`);
    const raw = fs.readFileSync((await download.path())!, 'utf8');
    expect(raw).toContain('Subject: Order 1234 arrived damaged');
    expect(raw).toContain('<script>');
  });

  it('shows one pane at a time under 768 px', async () => {
    await page.setViewportSize(MOBILE);
    try {
      const conversations = page.getByRole('navigation', { name: 'Conversations' });
      await page.getByRole('heading', { level: 2, name: 'Order 1234 arrived damaged' }).waitFor();
      await conversations.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: '← All conversations' }).click();
      await poll(() => param('conversation')).toBeNull();
      await conversations.waitFor();
      await page.getByRole('heading', { level: 2, name: 'Question about invoices' }).waitFor({ state: 'hidden' });
      await conversations.getByRole('link', { name: /Question about invoices/ }).click();
      await page.getByRole('heading', { level: 2, name: 'Question about invoices' }).waitFor();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    await checkPage(page, 'inbox-conversation');
  });

  it("answers an unknown inbox, a deleted one and another team's alike: not found", async () => {
    const other = await createMemberTeam(bed);
    const theirs = await createInbox(other.id, 'Their support', 'theirs');
    await deliver(theirs.address, invoices(theirs.address));
    const gone = await createInbox(team.id, 'Old sales', 'sales');
    await adminRequest(bed.t.app, 'DELETE', `/teams/${team.id}/inboxes/${gone.id}`);
    for (const id of [theirs.id, gone.id, 'inbox_doesnotexist']) {
      await page.goto(`${bed.base}/inboxes/${id}`);
      await h1('Not found').waitFor();
      expect(await page.getByText('Their support').count()).toBe(0);
    }
    await checkPage(page, 'inbox-not-found');
    await page.goto(`${bed.base}/inboxes`);
    await page.getByRole('table', { name: 'Inboxes' }).getByRole('link', { name: 'Support' }).waitFor();
    expect(await page.getByText('Their support').count()).toBe(0);
    expect(await page.getByText('Old sales').count()).toBe(0);
  });

  it('reads well in dark mode', async () => {
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.goto(`${bed.base}/inboxes/${inbox.id}`);
    await page.getByRole('heading', { level: 2, name: 'Question about invoices' }).waitFor();
    await checkPage(page, 'inbox-dark');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'System' }).click();
  });
});

// What the signed-in browser tests share: a listening Herald with its worker (the sign-in mail goes
// through the queue to the log transport's outbox), a DNS server on loopback for domain checks, and
// signing a browser context in by the link read from the outbox, as a person would.
import { simpleParser } from 'mailparser';
import type { BrowserContext, Page } from 'playwright-core';
import { createWorkerRunner } from '../../../src/worker.ts';
import type { Config } from '../../../src/config.ts';
import type { QueueRunner } from '../../../src/queue/index.ts';
import { createListeningTestApp, type TestApp } from '../../support/app.ts';
import { TestDnsServer } from '../../support/dns-server.ts';
import { adminRequest, createTeam, type TestTeam } from '../../support/factory.ts';

export interface SignedInBed {
  t: TestApp;
  runner: QueueRunner;
  base: string;
  close(): Promise<void>;
}

/** The bed with the loopback DNS server its Herald asks, where a test publishes a domain's records. */
export interface BedWithDns extends SignedInBed {
  dns: TestDnsServer;
}

export async function startSignedInBed(config: Partial<Config> = {}): Promise<BedWithDns> {
  const dns = await TestDnsServer.start();
  const t = await createListeningTestApp({ ...config, dnsServers: [dns.address] });
  const runner = createWorkerRunner(t.deps);
  await runner.start();
  return {
    t,
    runner,
    dns,
    base: t.deps.config.publicUrl,
    async close() {
      await runner.stop({ timeoutMs: 5_000 });
      await t.close();
      await dns.close();
    },
  };
}

export interface MemberTeam extends TestTeam {
  name: string;
  ownerEmail: string;
}

export async function createMemberTeam(bed: SignedInBed): Promise<MemberTeam> {
  const team = await createTeam(bed.t.app);
  const members = (await adminRequest(bed.t.app, 'GET', `/teams/${team.id}/members`)) as {
    id: number;
    email: string;
  }[];
  const owner = members.find((m) => m.id === team.ownerId)!;
  const { name } = (await adminRequest(bed.t.app, 'GET', `/teams/${team.id}`)) as { name: string };
  return { ...team, name, ownerEmail: owner.email };
}

/** Polls `read` until it answers non-null (usable in hooks, where expect.poll is not). */
export async function waitUntil<T>(read: () => Promise<T | null>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface OutboxMessage {
  id: string;
  envelope: { from: string; to: string[] };
  raw: string;
}

/**
 * The outbox's messages to `to` (the log transport's), oldest first, read by id: the worker's
 * database is shared by the files it runs, and an earlier file's clock may have stamped a hundred
 * rows later than this one, so the admin API's newest hundred by time need not hold them.
 */
export async function outboxTo(bed: SignedInBed, to: string): Promise<OutboxMessage[]> {
  const rows = await bed.t.deps.db
    .selectFrom('outbox')
    .select(['id', 'envelope_from', 'envelope_to', 'raw'])
    .orderBy('id')
    .execute();
  return rows
    .filter((row) => (row.envelope_to as string[]).includes(to))
    .map((row) => ({
      id: String(row.id),
      envelope: { from: row.envelope_from, to: row.envelope_to as string[] },
      raw: Buffer.from(row.raw).toString('utf8'),
    }));
}

/** The sign-in mails to `email` (Herald's own, from sign-in@). */
async function signInMails(bed: SignedInBed, email: string): Promise<OutboxMessage[]> {
  return (await outboxTo(bed, email)).filter((m) => m.envelope.from.startsWith('sign-in@'));
}

/** What `pattern` finds in a sign-in mail to `email` not among `seen` (ids), once the worker has sent it. */
async function fromSignInMail(bed: SignedInBed, email: string, seen: Set<string>, pattern: RegExp): Promise<string> {
  return waitUntil(async () => {
    bed.runner.wake();
    const mail = (await signInMails(bed, email)).find((m) => !seen.has(m.id));
    if (!mail) return null;
    const parsed = await simpleParser(mail.raw);
    return parsed.text?.match(pattern)?.at(-1) ?? null;
  }, `the sign-in mail to ${email}`);
}

/** The link of a sign-in mail to `email` not among `seen` (ids). */
export const signInLinkFor = (bed: SignedInBed, email: string, seen = new Set<string>()) =>
  fromSignInMail(bed, email, seen, /https?:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+/);

/** The 6-digit code of a sign-in mail to `email` not among `seen` (ids). */
export const signInCodeFor = (bed: SignedInBed, email: string, seen = new Set<string>()) =>
  fromSignInMail(bed, email, seen, /enter this code: (\d{6})/);

/** The ids of the sign-in mails to `email` so far (a later one is told from them). */
export async function signInMailIds(bed: SignedInBed, email: string): Promise<Set<string>> {
  return new Set((await signInMails(bed, email)).map((m) => m.id));
}

/** Signs the context in as `email`: the form on /sign-in, then the link from the mail. Lands on Overview. */
export async function signIn(bed: SignedInBed, page: Page, email: string): Promise<void> {
  const seen = await signInMailIds(bed, email);
  await page.goto(`${bed.base}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
  const link = await signInLinkFor(bed, email, seen);
  if (new URL(link).origin !== bed.base) throw new Error(`the link ${link} is not of ${bed.base}`);
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

export async function cookieNames(context: BrowserContext): Promise<string[]> {
  return (await context.cookies()).map((c) => c.name);
}

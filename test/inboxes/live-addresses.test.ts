// The listener's memory of live inbox addresses (src/inboxes/live-addresses.ts), on the real
// database: a live address is remembered, an unknown one always looked up, and a deletion notified
// while a lookup was in flight is not undone by that lookup's answer.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LiveInboxAddresses } from '../../src/inboxes/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminRequest, createTeam } from '../support/factory.ts';
import { MAIL_DOMAIN, uniqueLocal } from './support.ts';

let t: TestApp;
let teamId: number;

beforeAll(async () => {
  t = await createTestApp({ config: { mailDomain: MAIL_DOMAIN } });
  teamId = (await createTeam(t.app)).id;
});
afterAll(async () => t?.close());

async function newInbox(): Promise<string> {
  const inbox = await adminRequest(t.app, 'POST', `/teams/${teamId}/inboxes`, {
    name: 'Live',
    address: `${uniqueLocal('live')}@${MAIL_DOMAIN}`,
  });
  return inbox.address;
}

/** Deleted behind the memory's back (no notification), so only a lookup can tell. */
const deleteQuietly = (address: string) =>
  sql`UPDATE inboxes SET deleted_at = now() WHERE address = ${address}`.execute(t.deps.db);

it('remembers a live address, and looks up an unknown one every time', async () => {
  const live = new LiveInboxAddresses(t.deps.db, t.clock);
  const address = await newInbox();
  expect(await live.has(address)).toBe(true);
  await deleteQuietly(address);
  expect(await live.has(address)).toBe(true); // remembered
  live.forget(address);
  expect(await live.has(address)).toBe(false);
  expect(await live.has(`nobody-${uniqueLocal()}@${MAIL_DOMAIN}`)).toBe(false);
});

it('does not remember an answer that a deletion notified during its lookup overtook', async () => {
  const live = new LiveInboxAddresses(t.deps.db, t.clock);
  const address = await newInbox();
  const answer = live.has(address);
  live.forget(address); // the notification arrives while the lookup is in flight
  expect(await answer).toBe(true);
  await deleteQuietly(address);
  expect(await live.has(address)).toBe(false);
});

// The confirmation email and the contact's "sent" mark commit in one transaction (queueEmails in the
// job's own transaction), so there is no moment between the two steps at which a killed worker could
// leave an email stored for a contact still due. Driven through the real queue claim: a worker whose
// lease ran out (another took the contact over) fails after queueEmails and stores nothing; the
// worker holding the lease sends exactly one email, also when both run at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contactConfirmationQueue } from '../../src/contacts/double-opt-in-queue.ts';
import { newId } from '../../src/platform/ids.ts';
import { claimDue, type BatchContext, type ClaimedBatch, type Queue } from '../../src/queue/index.ts';
import { silentLogger } from '../../src/queue/types.ts';
import { startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';

let h: EmailHarness;
let team: SendingTeam;
let queue: Queue;
let bookId: string;

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team();
  queue = contactConfirmationQueue({ secrets: h.t.deps.secrets, publicUrl: h.t.deps.config.publicUrl });
  bookId = newId('cb_');
  await db()
    .insertInto('contact_books')
    .values({
      id: bookId,
      team_id: team.id,
      name: 'Letters',
      emoji: '📨',
      double_opt_in_enabled: true,
      double_opt_in_from: team.from('letters'),
      double_opt_in_subject: 'Confirm',
      double_opt_in_content: null,
      created_at: now(),
      updated_at: now(),
    })
    .execute();
}, 60_000);
afterAll(async () => h.close());

const db = () => h.t.deps.db;
const now = () => h.t.clock.now();

async function pendingContact(email: string): Promise<string> {
  const id = newId('ct_');
  await db()
    .insertInto('contacts')
    .values({
      id,
      team_id: team.id,
      contact_book_id: bookId,
      email,
      subscribed: false,
      confirmation_due_at: now(),
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  return id;
}

/** A worker's claim, narrowed to this contact (other files of the worker may leave rows due). */
async function claim(contactId: string): Promise<ClaimedBatch> {
  const batch = await claimDue(db(), queue, now());
  return { ...batch, rows: batch.rows.filter((row) => row.id === contactId) };
}

/** Runs the job as the worker that made `batch` (its lease), as the queue runner would. */
function work(batch: ClaimedBatch) {
  const ctx: BatchContext = {
    queue: queue.name,
    db: db(),
    clock: h.t.clock,
    claimedAt: batch.claimedAt,
    leaseUntil: batch.leaseUntil,
    signal: new AbortController().signal,
    logger: silentLogger,
  };
  return queue.handleBatch(batch.rows, ctx);
}

const emailsTo = async (address: string) =>
  db()
    .selectFrom('emails')
    .select(['id', 'api_key_id'])
    .where('team_id', '=', team.id)
    .where('to', '=', JSON.stringify(address))
    .execute();

const contact = (id: string) =>
  db()
    .selectFrom('contacts')
    .select(['confirmation_due_at', 'confirmation_sent_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

it('a worker that lost its lease fails after queueEmails and stores no email; the one holding it sends exactly one', async () => {
  const id = await pendingContact('late@example.com');
  const first = await claim(id);
  expect(first.rows).toHaveLength(1);
  // The first worker stalls past its lease; a second one takes the contact over.
  h.t.clock.advance(queue.leaseMs + 1_000);
  const second = await claim(id);
  expect(second.rows).toHaveLength(1);

  await work(first);
  expect(await emailsTo('late@example.com')).toHaveLength(0);
  expect((await contact(id)).confirmation_due_at).not.toBeNull();

  await work(second);
  const sent = await emailsTo('late@example.com');
  expect(sent).toHaveLength(1);
  expect(sent[0]!.api_key_id).toBe('system:contact-confirmation');
  expect(await contact(id)).toMatchObject({ confirmation_due_at: null, confirmation_sent_at: now() });

  // Run again: nothing is due any more, so nothing more is sent.
  expect((await claim(id)).rows).toHaveLength(0);
  expect(await emailsTo('late@example.com')).toHaveLength(1);
});

it('two workers racing on the same due contact produce exactly one email', async () => {
  for (let round = 0; round < 5; round += 1) {
    const address = `race${round}@example.com`;
    const id = await pendingContact(address);
    const stale = await claim(id);
    h.t.clock.advance(queue.leaseMs + 1_000);
    const current = await claim(id);
    await Promise.all([work(stale), work(current)]);
    expect(await emailsTo(address)).toHaveLength(1);
    expect((await contact(id)).confirmation_due_at).toBeNull();
  }
});

it('a send refused inside queueEmails (daily quota used up) rolls the job back: still due, no email', async () => {
  const id = await pendingContact('later@example.com');
  // The free plan's 100 recipients of today are used up: queueEmails answers 429 inside the job's transaction.
  await db()
    .insertInto('team_daily_usage')
    .values({
      team_id: team.id,
      day: now().toISOString().slice(0, 10),
      transactional: 100,
      marketing: 0,
    })
    .onConflict((oc) => oc.columns(['team_id', 'day']).doUpdateSet({ transactional: 100 }))
    .execute();
  const [outcome] = await work(await claim(id));
  expect(outcome).toMatchObject({ outcome: 'retry' });
  expect(await emailsTo('later@example.com')).toHaveLength(0);
  expect(await contact(id)).toMatchObject({ confirmation_sent_at: null });
  expect((await contact(id)).confirmation_due_at).not.toBeNull();
});

// The delivery queue beside the messages (0012_sms.sql): a message is queued by its own row in
// sms_deliveries, which its outcome deletes; the provider's id finds it for reports through
// sms_provider_ids; lists by status still find every status, the rare ones by index in a crowded
// team; both go with their team's messages (deleteSmsOfTeam, no trigger); no index of sms_messages names a column that a status change
// writes, and a full batch's new versions fit on their pages (so each change is a HOT update). The
// outcome statement writes rows that share some columns and differ in others, and a provider id
// given twice (a hash index, no uniqueness) fails nothing.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogSmsProvider } from '../../src/adapters/sms-provider/index.ts';
import { createTeam as createTeamRow } from '../../src/accounts/queries.ts';
import { deleteSmsOfTeam, smsDeliveryQueue } from '../../src/sms/index.ts';
import { applyLeasedSmsChanges } from '../../src/sms/outcomes.ts';
import { smsOutcomesStatement, writeSmsOutcomes } from '../../src/sms/outcome-queries.ts';
import { getSmsByProviderIdForUpdate, listSmsQuery, lockedSmsStatement } from '../../src/sms/queries.ts';
import type { TestApp } from '../support/app.ts';
import { bearer, createSmsTeam, type TestTeam } from '../support/factory.ts';
import type { FakeTwilio } from '../support/fake-twilio.ts';
import { planNodes, seqScanned } from '../support/query-plans.ts';
import { deliverDueSms, sendTestSms, startTwilioTestApp } from '../support/sms-delivery.ts';

let twilio: FakeTwilio;
let t: TestApp;
let callback: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, twilio, statusCallback: callback, close } = await startTwilioTestApp());
}, 60_000);
afterAll(() => close());

const send = async (team: TestTeam, to: string): Promise<string> => (await sendTestSms(t, team, to)).id;

/** The provider's id of the message the fake received for `to`. */
const sidFor = (to: string) => twilio.messages.find((message) => message.to === to)!.sid;

/** Stores `count` queued messages of `team` with their queue rows, in one statement. */
async function storeQueued(team: number, count: number, now: Date): Promise<void> {
  await sql`
    WITH stored AS (
      INSERT INTO sms_messages (id, team_id, to_number, to_prefix, country, sender_id, body, encoding, segments,
        currency, charge_minor, status, created_at, updated_at)
      SELECT 'sms_queued_' || ${team} || '_' || lpad(i::text, 5, '0'), ${team}, '+1415555' || lpad(i::text, 4, '0'),
        '+1415555', 'US', 'Herald', 'Your Herald verification code is 482913. It expires in 10 minutes.', 'GSM-7', 1,
        'USD', 1, 'queued', ${now}, ${now}
      FROM generate_series(1, ${count}::integer) AS i
      RETURNING id, to_number, sender_id, body
    )
    INSERT INTO sms_deliveries (sms_id, team_id, created_at, next_attempt_at, to_number, sender_id, body)
    SELECT id, ${team}, ${now}, ${now}, to_number, sender_id, body FROM stored`.execute(t.deps.db);
}

async function listed(team: TestTeam, status: string): Promise<string[]> {
  const response = await t.app.inject({ url: `/api/v1/sms?status=${status}`, headers: bearer(team.key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.map((sms: { id: string }) => sms.id);
}

async function queueRows(ids: readonly string[]) {
  const deliveries = await t.deps.db.selectFrom('sms_deliveries').select('sms_id').where('sms_id', 'in', ids).execute();
  const providerIds = await t.deps.db
    .selectFrom('sms_provider_ids')
    .select('sms_id')
    .where('sms_id', 'in', ids)
    .execute();
  return { queued: deliveries.map((row) => row.sms_id).sort(), known: providerIds.map((row) => row.sms_id).sort() };
}

it('lists every status, follows reports through the provider id, and forgets both with the team', async () => {
  const team = await createSmsTeam(t.app);
  const [toDelivered, toFailed, toSent, toRejected, toQueued] = [
    '+14155550101',
    '+14155550102',
    '+14155550103',
    '+14155550104',
    '+14155550105',
  ];
  const delivered = await send(team, toDelivered!);
  const failed = await send(team, toFailed!);
  const sent = await send(team, toSent!);
  const handedOver = [delivered, failed, sent];
  expect(await queueRows(handedOver)).toEqual({ queued: [...handedOver].sort(), known: [] });
  await deliverDueSms(t);
  // Refused before hand-off: it leaves the queue with no provider id.
  const rejected = await send(team, toRejected!);
  twilio.enqueue({ refuse: 21211 });
  await deliverDueSms(t);
  const queued = await send(team, toQueued!);
  const all = [...handedOver, rejected];
  expect(await queueRows(all)).toEqual({ queued: [], known: [delivered, failed, sent].sort() });

  expect((await twilio.postStatus(callback, { sid: sidFor(toDelivered!), status: 'delivered' })).status).toBe(200);
  const undelivered = { sid: sidFor(toFailed!), status: 'undelivered', errorCode: 30003 } as const;
  expect((await twilio.postStatus(callback, undelivered)).status).toBe(200);

  expect(await listed(team, 'queued')).toEqual([queued]);
  expect(await listed(team, 'sent')).toEqual([sent]);
  expect(await listed(team, 'delivered')).toEqual([delivered]);
  expect(await listed(team, 'failed')).toEqual([failed]);
  expect(await listed(team, 'rejected')).toEqual([rejected]);

  await t.deps.db.transaction().execute(async (tx) => {
    await deleteSmsOfTeam(tx, team.id);
    await tx.deleteFrom('teams').where('id', '=', team.id).execute();
  });
  expect(await queueRows([...all, queued])).toEqual({ queued: [], known: [] });
  // A report for a message that is gone finds nothing and changes nothing.
  expect((await twilio.postStatus(callback, { sid: sidFor(toSent!), status: 'delivered' })).status).toBe(200);
});

it('keeps every column a status change writes out of the indexes of sms_messages', async () => {
  const { rows } = await sql<{ definition: string }>`
    SELECT pg_get_indexdef(indexrelid) AS definition FROM pg_index WHERE indrelid = 'sms_messages'::regclass`.execute(
    t.deps.db,
  );
  expect(rows.length).toBeGreaterThan(3);
  for (const { definition } of rows) {
    for (const column of ['status', 'provider', 'provider_message_id', 'sent_at', 'delivered_at', 'updated_at'])
      expect(definition, definition).not.toMatch(new RegExp(`\\b${column}\\b`));
    // A reason is only ever written with failed or rejected; sent and delivered leave it null.
    if (definition.includes('reason_code')) expect(definition).toMatch(/WHERE \(reason_code IS NOT NULL\)$/);
  }
});

it("lists a crowded team's queued, failed and rejected messages by index, not by reading them all", async () => {
  const now = t.clock.now();
  const crowded = (await createTeamRow(t.deps.db, { name: 'crowded sender' }, now)).id;
  await sql`
    INSERT INTO sms_messages (id, team_id, to_number, to_prefix, country, sender_id, body, encoding, segments,
      currency, charge_minor, status, created_at, updated_at)
    SELECT 'sms_crowded_' || i, ${crowded}, '+14155550100', '+1415555', 'US', 'Herald', 'hello', 'GSM-7', 1,
      'USD', 1, 'delivered', ${now}, ${now}
    FROM generate_series(1, 20000) AS i`.execute(t.deps.db);
  await sql`ANALYZE sms_messages`.execute(t.deps.db);
  try {
    for (const status of ['queued', 'failed', 'rejected'] as const) {
      const nodes = await planNodes(t.deps.db, listSmsQuery(t.deps.db, crowded, { status, limit: 100 }).compile());
      expect(seqScanned(nodes), status).not.toContain('sms_messages');
      const expected = status === 'queued' ? 'sms_deliveries_team_list' : 'sms_messages_team_unsuccessful_list';
      expect(
        nodes.map((n) => n['Index Name']),
        status,
      ).toContain(expected);
    }
  } finally {
    await deleteSmsOfTeam(t.deps.db, crowded);
    await t.deps.db.deleteFrom('teams').where('id', '=', crowded).execute();
  }
});

it("writes a full batch's first status change in place: no message leaves its page", async () => {
  const now = t.clock.now();
  const team = (await createTeamRow(t.deps.db, { name: 'full batch' }, now)).id;
  // Stored in one statement, as neighbours on as few pages as the table's fillfactor allows.
  await storeQueued(team, smsDeliveryQueue({ provider: createLogSmsProvider(async () => {}) }).batchSize, now);
  const pages = async () => {
    const { rows } = await sql<{ id: string; status: string; page: string }>`
      SELECT id, status, (ctid::text::point)[0]::text AS page FROM sms_messages WHERE team_id = ${team} ORDER BY id`.execute(
      t.deps.db,
    );
    return rows;
  };
  try {
    const before = await pages();
    await deliverDueSms(t);
    const after = await pages();
    expect(after.map((row) => row.status)).toEqual(before.map(() => 'sent'));
    // A new version on another page is a non-HOT update: an entry in every index of the table.
    const moved = after.filter((row, i) => row.page !== before[i]!.page).map((row) => row.id);
    expect(moved).toEqual([]);
  } finally {
    await deleteSmsOfTeam(t.deps.db, team);
    await t.deps.db.deleteFrom('teams').where('id', '=', team).execute();
  }
});

it('writes rows that share some outcome columns and differ in others, each as given', async () => {
  const team = await createSmsTeam(t.app);
  const ids = [await send(team, '+14155550131'), await send(team, '+14155550132'), await send(team, '+14155550133')];
  const stored = await t.deps.db.selectFrom('sms_messages').selectAll().where('id', 'in', ids).orderBy('id').execute();
  const at = new Date('2026-11-28T10:00:00.000Z');
  const reason = { reason_code: 'invalid_number', reason_message: 'The number is not valid.' };
  // Status, reason, provider, provider id and sent_at differ between rows; updated_at is shared.
  const rows = stored.map((row, i) =>
    i === 1
      ? { ...row, status: 'rejected' as const, ...reason, updated_at: at }
      : {
          ...row,
          status: 'sent' as const,
          provider: 'twilio',
          provider_message_id: `SMmixed${i}`,
          sent_at: at,
          updated_at: at,
        },
  );
  expect(await writeSmsOutcomes(t.deps.db, rows)).toEqual(new Set(ids));
  // One row: every column is shared.
  const later = new Date('2026-11-28T10:00:05.000Z');
  await writeSmsOutcomes(t.deps.db, [{ ...rows[0]!, status: 'delivered', delivered_at: later, updated_at: later }]);

  const written = await t.deps.db.selectFrom('sms_messages').selectAll().where('id', 'in', ids).orderBy('id').execute();
  const outcome = (row: (typeof written)[number]) => ({
    status: row.status,
    reason: [row.reason_code, row.reason_message],
    provider: [row.provider, row.provider_message_id],
    times: [row.sent_at, row.delivered_at, row.updated_at],
  });
  expect(written.map(outcome)).toEqual([
    { status: 'delivered', reason: [null, null], provider: ['twilio', 'SMmixed0'], times: [at, later, later] },
    {
      status: 'rejected',
      reason: [reason.reason_code, reason.reason_message],
      provider: [null, null],
      times: [null, null, at],
    },
    { status: 'sent', reason: [null, null], provider: ['twilio', 'SMmixed2'], times: [at, null, at] },
  ]);
  expect(await queueRows(ids)).toEqual({ queued: [], known: [stored[0]!.id, stored[2]!.id].sort() });
});

it('keeps a provider id given twice without failing the batch, and tells providers apart by it', async () => {
  const team = await createSmsTeam(t.app);
  const ids = [await send(team, '+14155550141'), await send(team, '+14155550142'), await send(team, '+14155550143')];
  const stored = await t.deps.db.selectFrom('sms_messages').selectAll().where('id', 'in', ids).orderBy('id').execute();
  const at = t.clock.now();
  const providers = ['twilio', 'twilio', 'termii'];
  const rows = stored.map((row, i) => ({
    ...row,
    status: 'sent' as const,
    provider: providers[i]!,
    provider_message_id: 'SMgiventwice',
    sent_at: at,
    updated_at: at,
  }));
  expect(await writeSmsOutcomes(t.deps.db, rows)).toEqual(new Set(ids));
  const found = await t.deps.db.transaction().execute(async (tx) => ({
    termii: (await getSmsByProviderIdForUpdate(tx, 'termii', 'SMgiventwice'))?.id,
    twilio: (await getSmsByProviderIdForUpdate(tx, 'twilio', 'SMgiventwice'))?.id,
  }));
  expect(found.termii).toBe(stored[2]!.id);
  expect([stored[0]!.id, stored[1]!.id]).toContain(found.twilio);
});

it("writes a batch's outcomes under its lease in one transaction, planned for any queue", async () => {
  const now = t.clock.now();
  const team = (await createTeamRow(t.deps.db, { name: 'long queue' }, now)).id;
  await storeQueued(team, 20_000, now);
  // Statistics taken before the claim: no queued message holds a lease, as in a running deployment.
  await sql`ANALYZE sms_messages, sms_deliveries`.execute(t.deps.db);
  const lease = new Date(now.getTime() + 120_000);
  const claimed = await sql<{ sms_id: string }>`
    UPDATE sms_deliveries SET lease_until = ${lease}, attempts = 1
    WHERE sms_id IN (SELECT sms_id FROM sms_deliveries WHERE team_id = ${team} ORDER BY sms_id LIMIT 250)
    RETURNING sms_id`.execute(t.deps.db);
  const changes = [{ status: 'sent' as const, provider: 'twilio', reason: null }];
  const rows = claimed.rows.map(({ sms_id }, i) => ({
    id: sms_id,
    team_id: team,
    status: 'sent' as const,
    charge_transaction_id: null,
    reason_code: null,
    reason_message: null,
    provider: 'twilio',
    provider_message_id: `SMlongqueue${i}`,
    sent_at: now,
    delivered_at: null,
    updated_at: now,
  }));
  try {
    // An unnamed statement is planned with its parameters' values, as a prepared statement's first
    // plans on each connection are: every join of the outcome statement is an index lookup by id.
    const nodes = await planNodes(t.deps.db, smsOutcomesStatement(rows).compile(t.deps.db));
    expect(seqScanned(nodes)).toEqual([]);
    // The lock is planned for about as many rows as it takes (a filter on the lease, estimated at one
    // row, leads plans to read the messages once per queue row); the join's estimate may round to 249.
    const locked = await planNodes(t.deps.db, lockedSmsStatement(rows.map((row) => row.id)).compile(t.deps.db));
    expect(locked[0]!['Plan Rows']).toBeGreaterThanOrEqual(240);
    // A row changed since the claim (not by another worker) is still ours to write.
    await sql`UPDATE sms_deliveries SET last_error = 'moved' WHERE sms_id = ${claimed.rows[0]!.sms_id}`.execute(
      t.deps.db,
    );
    const items = rows.map((row) => ({
      id: row.id,
      changes: [{ ...changes[0]!, providerMessageId: row.provider_message_id }],
    }));
    expect(await applyLeasedSmsChanges(t.deps.db, lease, items, now)).toHaveLength(250);
    const left = await t.deps.db
      .selectFrom('sms_deliveries')
      .select('sms_id')
      .where('lease_until', '=', lease)
      .execute();
    expect(left).toEqual([]);
  } finally {
    await deleteSmsOfTeam(t.deps.db, team);
    await t.deps.db.deleteFrom('teams').where('id', '=', team).execute();
  }
});

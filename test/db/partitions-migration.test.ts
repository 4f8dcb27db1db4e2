// 0027_monthly_partitions on a database that already holds rows (0001..0026 applied, then data):
// every row stays where it was, in the first partition, ids and values unchanged; new months get
// their own partitions; foreign keys, the email_events triggers and the events' id sequence still
// work, the last even once the first partition is dropped (what retention will do).
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DbHandle } from '../../src/db/connect.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { newId } from '../../src/platform/ids.ts';
import { freshPostgresDatabase } from '../support/fresh-database.ts';

const PARTITIONED = [
  'emails',
  'email_events',
  'email_recipients',
  'email_attachments',
  'email_opens',
  'webhook_calls',
  'sms_messages',
  'verifications',
  'inbox_messages',
  'inbox_attachments',
];
const EMAIL_CHILDREN = ['email_events', 'email_recipients', 'email_attachments', 'email_opens'];
const DAY = 24 * 60 * 60 * 1000;

const yyyymm = (at: Date) => `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
const monthStart = (offset: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
};
// The names the migration gives, from the month it ran in (this one).
const nextMonth = monthStart(1);
const before = (table: string) => `${table}_before_${yyyymm(nextMonth)}`;
const monthPart = (table: string, month: Date) => `${table}_m${yyyymm(month)}`;

let handle: DbHandle;
let dropDatabase: (() => Promise<void>) | null = null;
const rows = async <T>(query: RawBuilder<T>): Promise<T[]> => (await query.execute(handle.db)).rows;

// The rows as the database renders them (jsonb, sorted), so both drivers compare alike.
const snapshot = async (table: string): Promise<unknown[]> => {
  const [row] = await rows(
    sql<{
      j: string;
    }>`SELECT coalesce(jsonb_agg(to_jsonb(t) ORDER BY to_jsonb(t)::text), '[]')::text AS j FROM ${sql.table(table)} t`,
  );
  return JSON.parse(row!.j) as unknown[];
};
const partitionsOf = async (table: string) =>
  (
    await rows(sql<{ name: string }>`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = ${table}::regclass ORDER BY c.relname`)
  ).map((r) => r.name);
const partitionOf = async (table: string, column: string, id: string) =>
  (
    await rows(
      sql<{
        part: string;
      }>`SELECT tableoid::regclass::text AS part FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${id}`,
    )
  ).map((r) => r.part);

const old = new Date(Date.now() - 90 * DAY);
const recent = new Date(Date.now() - 60_000);
const emailIds = [newId('em_', old), newId('em_', old), newId('em_', recent)];
const [oldEmail, secondOld, recentEmail] = emailIds as [string, string, string];
const callId = newId('msg_', old);
const smsId = newId('sms_', recent);
const verificationId = newId('ver_', old);
const inboxMessageId = newId('inmsg_', recent);
let teamId: number;
const before0027 = new Map<string, unknown[]>();

/** The rows 0027 finds: a team's emails of two months with their children, and one of every other table. */
async function insertRows(): Promise<void> {
  [{ id: teamId }] = (await rows(sql<{ id: number }>`INSERT INTO teams (name) VALUES ('Partitions') RETURNING id`)) as [
    { id: number },
  ];
  for (const [i, id] of emailIds.entries()) {
    const at = id === recentEmail ? recent : old;
    await rows(sql`INSERT INTO emails (id, team_id, "from", "to", subject, text, status, run_at, created_at, updated_at)
      VALUES (${id}, ${teamId}, 'a@example.test', ${JSON.stringify(`r${i}@example.test`)}::jsonb, ${`Email ${i}`}, 'Hi',
        'SENT', ${at}, ${at}, ${at})`);
    await rows(
      sql`INSERT INTO email_recipients (team_id, address, email_id) VALUES (${teamId}, ${`r${i}@example.test`}, ${id})`,
    );
    await rows(sql`INSERT INTO email_events (team_id, email_id, status, created_at)
      VALUES (${teamId}, ${id}, 'QUEUED', ${at}), (${teamId}, ${id}, 'SENT', ${at})`);
  }
  await rows(sql`INSERT INTO email_attachments (email_id, position, filename, content, content_id)
    VALUES (${oldEmail}, 0, 'a.txt', '\\x6869'::bytea, 'cid-a')`);
  await rows(sql`INSERT INTO email_opens (email_id, open_key, open_count, last_opened_at, recent_at, recent_user_agents, activity_at)
    VALUES (${oldEmail}, '', 2, ${old}, ARRAY[${old}::timestamptz], ARRAY['UA'], ${old})`);
  await rows(sql`INSERT INTO webhooks (id, team_id, url, status, secret_sealed, secret_hint, created_at, updated_at)
    VALUES ('wh_partitions', ${teamId}, 'https://example.test/hook', 'ACTIVE', 'sealed', 'whsec_…', ${old}, ${old})`);
  await rows(sql`INSERT INTO webhook_calls (id, team_id, webhook_id, type, payload, status, created_at, updated_at)
    VALUES (${callId}, ${teamId}, 'wh_partitions', 'email.sent', '{}', 'DELIVERED', ${old}, ${old})`);
  await rows(sql`INSERT INTO sms_messages (id, team_id, to_number, to_prefix, country, sender_id, body, encoding, segments,
      currency, charge_minor, status, created_at, updated_at)
    VALUES (${smsId}, ${teamId}, '+2348030000000', '+23480300', 'NG', 'Herald', 'Hi', 'GSM-7', 1, 'NGN', 400, 'queued',
      ${recent}, ${recent})`);
  await rows(sql`INSERT INTO verifications (id, team_id, channel, to_address, status, code_hash, attempts_remaining, expires_at,
      risk_score, risk_level, risk_reasons, created_at, updated_at)
    VALUES (${verificationId}, ${teamId}, 'email', 'v@example.test', 'expired', '\\x00'::bytea, 3, ${old}, 0, 'low', '[]',
      ${old}, ${old})`);
  await rows(sql`INSERT INTO inboxes (id, team_id, name, address, created_at)
    VALUES ('inb_partitions', ${teamId}, 'Support', 'support@herald.localhost', ${old})`);
  await rows(sql`INSERT INTO inbox_messages (id, team_id, inbox_id, conversation_id, mail_from, "from", "to", cc, subject,
      spam_verdict, is_spam, spam_details, remote_address, raw_size, received_at)
    VALUES (${inboxMessageId}, ${teamId}, 'inb_partitions', 'conv_1', 'x@example.test', 'x@example.test',
      ARRAY['support@herald.localhost'], ARRAY[]::text[], 'Help', 'ham', false, '{}', '192.0.2.1', 10, ${recent})`);
  await rows(sql`INSERT INTO inbox_attachments (message_id, position, team_id, filename, content_type, size)
    VALUES (${inboxMessageId}, 0, ${teamId}, 'b.pdf', 'application/pdf', 5)`);
}

// PGlite applies the migrations in seconds alone, far slower on a loaded machine.
describe('0027_monthly_partitions (and 0028, 0029) on a database with rows', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    const base = process.env.DATABASE_URL;
    let url: string | null = null;
    if (base !== undefined && base !== '') {
      const fresh = await freshPostgresDatabase(base, 'partitions');
      dropDatabase = fresh.drop;
      url = fresh.url;
    }
    handle = await connectDatabase({ databaseUrl: url, dataDir: null, poolSize: 2 });
    // As migrate() applies a file, so that the real migrate() below finds only 0027 pending.
    await handle.execScript(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    for (const m of listMigrations().filter((m) => m.version <= 26))
      await handle.execScript(
        `${m.sql};\nINSERT INTO schema_migrations (version, name) VALUES (${m.version}, '${m.name}');`,
      );
    await insertRows();
    for (const table of PARTITIONED) before0027.set(table, await snapshot(table));
    expect(await migrate(handle)).toEqual([
      '0027_monthly_partitions',
      '0028_partitions_without_outside_keys',
      '0029_partition_first_analysis',
    ]);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
    await dropDatabase?.();
  });

  it('keeps every row, same ids and values, in the first partition', async () => {
    for (const table of PARTITIONED) {
      const after = await snapshot(table);
      // Subset match: 0027 may add columns (retention's body_removed_at); the old ones keep their values.
      expect(after, table).toMatchObject(before0027.get(table)!);
      expect(after.length, table).toBeGreaterThan(0);
      const parts = await rows(
        sql<{ part: string }>`SELECT DISTINCT tableoid::regclass::text AS part FROM ${sql.table(table)}`,
      );
      expect(
        parts.map((p) => p.part),
        table,
      ).toEqual([before(table)]);
    }
  });

  it('partitions each table: the first partition, two months, and the default', async () => {
    const partitioned = await rows(sql<{ name: string }>`SELECT c.relname AS name FROM pg_partitioned_table p
      JOIN pg_class c ON c.oid = p.partrelid`);
    expect(partitioned.map((p) => p.name).sort()).toEqual([...PARTITIONED].sort());
    for (const table of PARTITIONED)
      expect(await partitionsOf(table), table).toEqual(
        [before(table), monthPart(table, nextMonth), monthPart(table, monthStart(2)), `${table}_later`].sort(),
      );
    // New months keep the storage options of the table (HOT room on the opens' pages), and every
    // partition is first analysed after 1,000 changes (0029).
    const [opens] = await rows(sql<{ options: string[] | null }>`SELECT reloptions AS options FROM pg_class
      WHERE relname = ${monthPart('email_opens', nextMonth)}`);
    expect(opens!.options).toEqual(['fillfactor=50', 'autovacuum_analyze_threshold=1000']);
    for (const table of PARTITIONED) {
      const options = await rows(sql<{ options: string[] | null }>`SELECT c.reloptions AS options
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass(${table})`);
      for (const { options: each } of options) expect(each, table).toContain('autovacuum_analyze_threshold=1000');
    }
  });

  it('keeps foreign keys only inside a family, so dropping a month locks no other table', async () => {
    const keys = await rows(sql<{ tab: string; ref: string }>`
      SELECT c.conrelid::regclass::text AS tab, c.confrelid::regclass::text AS ref
      FROM pg_constraint c JOIN pg_inherits i ON i.inhrelid = c.conrelid
      WHERE c.contype = 'f' AND i.inhparent = ANY(${[...PARTITIONED]}::regclass[])
      ORDER BY 1`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      // email_events_m202612 -> emails_m202612: the same month's partition of the family's root.
      const month = key.tab.slice(key.tab.search(/_(before_|m\d|later)/));
      expect(key.ref, key.tab).toMatch(new RegExp(`^(emails|inbox_messages)${month}$`));
    }
  });

  it('reads by id, pruned to the partition that holds the id', async () => {
    for (const [table, column, id] of [
      ['emails', 'id', recentEmail],
      ['email_events', 'email_id', oldEmail],
      ['webhook_calls', 'id', callId],
      ['sms_messages', 'id', smsId],
      ['verifications', 'id', verificationId],
      ['inbox_attachments', 'message_id', inboxMessageId],
    ] as const) {
      expect((await partitionOf(table, column, id)).length, table).toBeGreaterThan(0);
      const plan = await rows(
        sql<{
          'QUERY PLAN': string;
        }>`EXPLAIN SELECT * FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${sql.lit(id)}`,
      );
      const text = plan.map((line) => line['QUERY PLAN']).join('\n');
      expect(text, table).toContain(before(table));
      expect(text, table).not.toContain(`${table}_later`);
    }
  });

  it('puts an email of next month, and its event, in that month', async () => {
    const id = newId('em_', new Date(nextMonth.getTime() + 2 * DAY));
    const at = new Date(nextMonth.getTime() + 2 * DAY);
    await rows(sql`INSERT INTO emails (id, team_id, "from", subject, status, run_at, created_at, updated_at)
      VALUES (${id}, ${teamId}, 'a@example.test', 'Next month', 'QUEUED', ${at}, ${at}, ${at})`);
    await rows(
      sql`INSERT INTO email_events (team_id, email_id, status, created_at) VALUES (${teamId}, ${id}, 'QUEUED', ${at})`,
    );
    expect(await partitionOf('emails', 'id', id)).toEqual([monthPart('emails', nextMonth)]);
    expect(await partitionOf('email_events', 'email_id', id)).toEqual([monthPart('email_events', nextMonth)]);
  });

  it("still cascades an email's delete to its events, recipients, attachments and opens", async () => {
    await rows(sql`DELETE FROM emails WHERE id = ${oldEmail}`);
    for (const table of EMAIL_CHILDREN) expect(await partitionOf(table, 'email_id', oldEmail), table).toEqual([]);
    await rows(sql`DELETE FROM inbox_messages WHERE id = ${inboxMessageId}`);
    expect(await partitionOf('inbox_attachments', 'message_id', inboxMessageId)).toEqual([]);
  });

  it('still runs the email_events triggers: address activity and the daily counters', async () => {
    // 0004's trigger moves the recipient's last_received_at; 0010/0022's counts the first DELIVERED.
    const at = new Date();
    await rows(
      sql`INSERT INTO email_events (team_id, email_id, status, created_at) VALUES (${teamId}, ${secondOld}, 'DELIVERED', ${at})`,
    );
    const [activity] = await rows(sql<{ at: Date }>`SELECT last_received_at AS at FROM address_activity
      WHERE team_id = ${teamId} AND address = 'r1@example.test'`);
    expect(new Date(activity!.at).toISOString()).toBe(at.toISOString());
    const [stats] = await rows(sql<{ delivered: number }>`SELECT coalesce(sum(delivered), 0)::int AS delivered
      FROM email_daily_stats WHERE team_id = ${teamId} AND day = ${at.toISOString().slice(0, 10)}::date`);
    expect(stats!.delivered).toBe(1);
  });

  it("takes email_events ids from the table's own sequence once the first partition is dropped", async () => {
    const [{ top }] = (await rows(sql<{ top: string }>`SELECT max(id)::text AS top FROM email_events`)) as [
      { top: string },
    ];
    // Retention's order: the children's months first, then the emails' (the keys reference them).
    for (const table of [...EMAIL_CHILDREN, 'emails']) {
      await handle.execScript(`ALTER TABLE ${table} DETACH PARTITION ${before(table)}; DROP TABLE ${before(table)};`);
      expect(await partitionsOf(table), table).not.toContain(before(table));
    }
    const [{ id: emailId }] = (await rows(sql<{ id: string }>`SELECT id FROM emails`)) as [{ id: string }];
    const [{ id }] = (await rows(sql<{ id: string }>`INSERT INTO email_events (team_id, email_id, status, created_at)
      VALUES (${teamId}, ${emailId}, 'SENT', now()) RETURNING id::text AS id`)) as [{ id: string }];
    expect(BigInt(id)).toBeGreaterThan(BigInt(top));
    const [owner] = await rows(sql<{ seq: string | null }>`SELECT pg_get_serial_sequence('email_events', 'id') AS seq`);
    expect(owner!.seq).toBe('public.email_events_id_seq');
  });
});

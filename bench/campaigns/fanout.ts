// The campaigns benchmark's fan-out (bench/campaigns.ts): the book's contacts made by set-based SQL,
// the bare INSERT … SELECT of as many similar email rows, and Herald's fan-out of a campaign to the
// book timed from its schedule until every email row is queued, with the process's RSS sampled.
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import type { Deps } from '../../src/deps.ts';
import { campaignFanoutQueue } from '../../src/campaigns/index.ts';
import { QueueRunner } from '../../src/queue/index.ts';

export const SUBJECT = 'What is new this month';
/** About 2 KB, personalised, with the unsubscribe link a campaign must carry. */
export const BODY = `<h1>Hello {{firstName}}</h1>${Array.from(
  { length: 12 },
  (_, i) => `<p>Story ${i + 1}: what changed this month, and what it means for your account, in brief.</p>`,
).join('')}<p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>`;

export interface CampaignTeam {
  id: number;
  domainId: number;
  from: string;
  authorization: string;
}

/** A book of `count` subscribed contacts, made in one statement. */
export async function seedBook(app: FastifyInstance, db: Kysely<Database>, team: CampaignTeam, count: number) {
  const book = await app.inject({
    method: 'POST',
    url: '/api/v1/contactBooks',
    headers: { authorization: team.authorization },
    payload: { name: 'Readers' },
  });
  if (book.statusCode !== 200) throw new Error(`creating the book answered ${book.statusCode}: ${book.body}`);
  const bookId = (book.json() as { id: string }).id;
  await sql`INSERT INTO contacts (id, team_id, contact_book_id, email, first_name, last_name, subscribed, properties,
      confirmed_at, created_at, updated_at)
    SELECT 'ct_bench' || lpad(g::text, 8, '0'), ${team.id}::integer, ${bookId}::text,
      'reader-' || g || '@example.test', 'Reader ' || g, 'Bench', true, '{"plan": "pro"}'::jsonb, now(), now(), now()
    FROM generate_series(1, ${count}::integer) AS g`.execute(db);
  await sql`ANALYZE contacts`.execute(db);
  return bookId;
}

/**
 * The baseline: as many similar email rows (personalised html, QUEUED in the bulk lane) in one
 * statement, into a table of their own with the same columns and indexes (emails has no foreign
 * keys), dropped after: Herald's partitions are left as the run found them.
 */
export async function bareInsert(db: Kysely<Database>, team: CampaignTeam, bookId: string): Promise<number> {
  await sql`CREATE TABLE bare_emails (LIKE emails INCLUDING ALL)`.execute(db);
  const started = performance.now();
  await sql`INSERT INTO bare_emails (id, team_id, domain_id, "from", "to", subject, html, type, status, run_at, bulk,
      created_at, updated_at)
    SELECT 'em_bare' || c.id, c.team_id, ${team.domainId}::integer, ${team.from}::text, to_jsonb(c.email), ${SUBJECT}::text,
      replace(${BODY}::text, '{{firstName}}', coalesce(c.first_name, '')), 'MARKETING', 'QUEUED', now(), true, now(), now()
    FROM contacts c WHERE c.team_id = ${team.id}::integer AND c.contact_book_id = ${bookId}::text`.execute(db);
  const seconds = (performance.now() - started) / 1000;
  await sql`DROP TABLE bare_emails`.execute(db);
  return seconds;
}

export interface FanoutFigures {
  campaignId: string;
  seconds: number;
  rssGrowthMb: number;
  emails: number;
}

/** Herald: schedule a campaign to the book, one fan-out runner in this process, until it is SENT. */
export async function heraldFanout(
  deps: Deps,
  app: FastifyInstance,
  team: CampaignTeam,
  bookId: string,
  progress: (line: string) => void,
): Promise<FanoutFigures> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/campaigns',
    headers: { authorization: team.authorization },
    payload: { name: 'Bench', from: team.from, subject: SUBJECT, contactBookId: bookId, html: BODY },
  });
  if (created.statusCode !== 200)
    throw new Error(`creating the campaign answered ${created.statusCode}: ${created.body}`);
  const campaignId = (created.json() as { id: string }).id;
  const runner = new QueueRunner({ database: deps.database, queues: [campaignFanoutQueue()], pollMs: 50 });
  await runner.start();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const started = performance.now();
  let lastReport = started;
  try {
    const scheduled = await app.inject({
      method: 'POST',
      url: `/api/v1/campaigns/${campaignId}/schedule`,
      headers: { authorization: team.authorization },
      payload: {},
    });
    if (scheduled.statusCode !== 200) throw new Error(`schedule answered ${scheduled.statusCode}: ${scheduled.body}`);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { status, paused_reason } = await deps.db
        .selectFrom('campaigns')
        .select(['status', 'paused_reason'])
        .where('id', '=', campaignId)
        .executeTakeFirstOrThrow();
      if (status === 'SENT') break;
      if (status === 'PAUSED') throw new Error(`the campaign paused (${paused_reason}): raise the plan's limits`);
      if (performance.now() - lastReport > 10_000) {
        lastReport = performance.now();
        const done = await sql<{ n: number }>`SELECT count(*)::int AS n FROM campaign_recipients
          WHERE campaign_id = ${campaignId} AND email_id IS NOT NULL`.execute(deps.db);
        progress(
          `fan-out: ${done.rows[0]!.n.toLocaleString('en-US')} emails queued after ${Math.round((lastReport - started) / 1000)} s`,
        );
      }
    }
  } finally {
    clearInterval(sampler);
    await runner.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const emails = await sql<{ n: number }>`SELECT count(*)::int AS n FROM emails
    WHERE campaign_id = ${campaignId} AND status = 'QUEUED'`.execute(deps.db);
  return { campaignId, seconds, rssGrowthMb: (peak - baseline) / 1024 / 1024, emails: emails.rows[0]!.n };
}

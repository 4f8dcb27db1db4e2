// The fan-out tests' kit: a runner of the campaign-fanout queue driven by the test clock, a drain
// until no campaign of a team is due or held, contacts in bulk, and what a campaign sent.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect } from 'vitest';
import { createLogTransport } from '../../src/adapters/mail-transport/index.ts';
import { CAMPAIGN_FANOUT_QUEUE, campaignFanoutQueue } from '../../src/campaigns/index.ts';
import { sessionBounces } from '../../src/feedback/index.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import type { CampaignTeam } from './support.ts';

export function fanoutKit(h: EmailHarness) {
  /** What both delivery lanes deliver through: the log transport. */
  const delivery = () => ({
    secrets: h.t.deps.secrets,
    publicUrl: h.t.deps.config.publicUrl,
    transport: createLogTransport(() => {}),
    mailDomain: h.t.deps.config.mailDomain,
    bounces: sessionBounces,
  });

  async function startRunner() {
    const runner = new QueueRunner({
      database: h.t.deps.database,
      queues: [campaignFanoutQueue()],
      clock: h.t.clock,
      pollMs: 50,
    });
    await runner.start();
    return runner;
  }

  /** Lets the runners take every campaign of the team due now, until none is due or held. */
  async function drain(team: CampaignTeam, runners: QueueRunner[]) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      for (const runner of runners) runner.notify(CAMPAIGN_FANOUT_QUEUE);
      await Promise.all(runners.map((runner) => runner.idle()));
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM campaigns WHERE team_id = ${team.id}
        AND (lease_until IS NOT NULL OR (status IN ('SCHEDULED', 'RUNNING') AND next_batch_at <= ${h.t.clock.now()}))`.execute(
        h.t.deps.db,
      );
      if (rows[0]!.n === 0) return;
      if (Date.now() > deadline) throw new Error(`campaigns not drained: ${rows[0]!.n} due or held`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function addContacts(team: CampaignTeam, count: number, prefix: string, fields: Record<string, unknown> = {}) {
    const contacts = Array.from({ length: count }, (_, i) => ({
      email: `${prefix}${i}@example.test`,
      firstName: `Reader${i}`,
      ...fields,
    }));
    const added = await team.call('POST', `/v1/contactBooks/${team.bookId}/contacts/bulk`, contacts);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }

  /** The campaign's emails by recipient address: how many each got. */
  async function emailsPerRecipient(campaignId: string) {
    const { rows } = await sql<{ to: string; n: number }>`SELECT "to" #>> '{}' AS "to", count(*)::int AS n
      FROM emails WHERE campaign_id = ${campaignId} GROUP BY 1`.execute(h.t.deps.db);
    return new Map(rows.map((row) => [row.to, row.n]));
  }

  const read = async (team: CampaignTeam, id: string) => (await team.call('GET', `/v1/campaigns/${id}`)).body;

  return { delivery, startRunner, drain, addContacts, emailsPerRecipient, read };
}

/** A test file's harness and kit, made before its tests and closed after them. */
export function fanoutSuite() {
  const suite = {} as { h: EmailHarness; kit: ReturnType<typeof fanoutKit> };
  beforeAll(async () => {
    suite.h = await startEmailHarness();
    suite.kit = fanoutKit(suite.h);
  }, 120_000);
  afterAll(() => suite.h.close());
  return suite;
}

// A team whose messages and codes the planner's statistics have not seen yet (a new busy sender: a
// month partition is analysed again only once a tenth of it changed) is counted within `cap` rows.
// Over every month partition the planner, expecting about one row, appended them and sorted the
// team's whole window for each count: with one client IP for all its sends, each send read every
// message of the last ten minutes (bench/RESULTS.md, SMS send).
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/connect.ts';
import { createTeam } from '../../src/accounts/queries.ts';
import { sendContextsStatement } from '../../src/sms/context-queries.ts';
import { deleteSmsOfTeam } from '../../src/sms/index.ts';
import { sendFactsStatement } from '../../src/verify/send-facts-queries.ts';
import { getTestDb } from '../support/db.ts';
import { planNodes } from '../support/query-plans.ts';

const SENT = 3_000;
const CAP = 30;
const now = new Date();
const since = new Date(now.getTime() - 10 * 60_000);
const clientIpHash = Buffer.alloc(32, 9);
let handle: DbHandle;
let team: number;

/** The most rows any scan of `table` returned in the statement's run. */
async function mostRowsRead(statement: RawBuilder<unknown>, table: string): Promise<number> {
  const nodes = await planNodes(handle.db, statement.compile(handle.db), { analyze: true });
  const scans = nodes.filter((node) => node['Relation Name'] === table);
  expect(scans.length).toBeGreaterThan(0);
  return Math.max(...scans.map((node) => node['Actual Rows']! * node['Actual Loops']!));
}

describe('risk counts of a team the statistics have not seen', () => {
  beforeAll(async () => {
    handle = await getTestDb();
    team = (await createTeam(handle.db, { name: 'new busy sender' }, now)).id;
    await sql`ANALYZE sms_messages`.execute(handle.db);
    await sql`ANALYZE verifications`.execute(handle.db);
    // Its sends of the last five minutes, one client IP, one number, with ids of their time.
    const at = sql`${now}::timestamptz - interval '5 minutes' + i * interval '50 milliseconds'`;
    await sql`
      INSERT INTO sms_messages (id, team_id, to_number, to_prefix, country, sender_id, body, encoding, segments,
        currency, charge_minor, status, client_ip_hash, created_at, updated_at)
      SELECT herald_id_floor('sms_', ${at}) || lpad(i::text, 16, '0'), ${team}, '+14155550001', '+1415555', 'US',
        'Herald', 'hello', 'GSM-7', 1, 'USD', 1, 'sent', ${clientIpHash}, ${at}, ${at}
      FROM generate_series(1, ${SENT}) AS i`.execute(handle.db);
    await sql`
      INSERT INTO verifications (id, team_id, channel, to_address, to_prefix, country, status, code_hash,
        attempts_remaining, expires_at, client_ip_hash, risk_score, risk_level, risk_reasons, created_at, updated_at)
      SELECT herald_id_floor('ver_', ${at}) || lpad(i::text, 16, '0'), ${team}, 'sms', '+14155550001', '+1415555',
        'US', 'pending', decode(md5(i::text), 'hex'), 5, ${now}, ${clientIpHash}, 0, 'LOW', '[]', ${at}, ${at}
      FROM generate_series(1, ${SENT}) AS i`.execute(handle.db);
  }, 120_000);

  afterAll(async () => {
    await deleteSmsOfTeam(handle.db, team);
    await handle.db.deleteFrom('verifications').where('team_id', '=', team).execute();
    await handle.db.deleteFrom('teams').where('id', '=', team).execute();
  });

  it('an SMS send reads at most cap messages a count', async () => {
    const statement = sendContextsStatement([
      {
        teamId: team,
        country: 'US',
        toPrefix: '+1415555',
        toNumber: '+14155550001',
        clientIpHash,
        since,
        until: now,
        cap: CAP,
      },
    ]);
    expect(await mostRowsRead(statement, 'sms_messages')).toBeLessThanOrEqual(CAP);
  });

  it('a code send reads at most cap codes a count', async () => {
    const statement = sendFactsStatement([
      {
        teamId: team,
        context: { fromDomain: null, to: null, keyDomainId: null },
        risk: {
          to: '+14155550001',
          clientIpHash,
          toPrefix: '+1415555',
          country: 'US',
          since,
          conversionSince: new Date(now.getTime() - 86_400_000),
          conversionUntil: since,
          conversionSample: CAP,
          now,
          cap: CAP,
        },
      },
    ]);
    expect(await mostRowsRead(statement, 'verifications')).toBeLessThanOrEqual(CAP);
  });
});

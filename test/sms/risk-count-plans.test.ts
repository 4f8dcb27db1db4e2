// The risk signals' counts of an SMS send and of a code send keep to their indexes when another
// team's messages and codes fill the tables (as one busy team does on a self-hosted server). Before,
// the planner expected the capped counts and the country check to find their rows early in a
// sequential scan, and a send for a quiet team read both tables whole (bench/RESULTS.md, SMS send).
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/connect.ts';
import { createTeam } from '../../src/accounts/queries.ts';
import { sendContextsStatement } from '../../src/sms/context-queries.ts';
import { deleteSmsOfTeam } from '../../src/sms/index.ts';
import { sendFactsStatement } from '../../src/verify/send-facts-queries.ts';
import { getTestDb } from '../support/db.ts';
import { planNodes, seqScanned } from '../support/query-plans.ts';

const CROWD = 20_000;
const CROWDED = ['sms_messages', 'verifications'];
const now = new Date();
const since = new Date(now.getTime() - 10 * 60_000);
let handle: DbHandle;
let busyTeam: number;
let quietTeam: number;

/** The crowded tables the statement's plan reads with a sequential scan (small tables may be). */
async function seqScans(statement: RawBuilder<unknown>): Promise<string[]> {
  const nodes = await planNodes(handle.db, statement.compile(handle.db));
  return seqScanned(nodes).filter((table) => CROWDED.includes(table ?? '')) as string[];
}

describe('risk counts on crowded tables', () => {
  beforeAll(async () => {
    handle = await getTestDb();
    busyTeam = (await createTeam(handle.db, { name: 'busy sender' }, now)).id;
    quietTeam = (await createTeam(handle.db, { name: 'quiet sender' }, now)).id;
    // The busy team: many messages and codes to a few numbers, prefixes, addresses and client IPs,
    // with ids of their time (so in this month's partition, as the sends' are).
    await sql`
      INSERT INTO sms_messages (id, team_id, to_number, to_prefix, country, sender_id, body, encoding, segments,
        currency, charge_minor, status, client_ip_hash, created_at, updated_at)
      SELECT herald_id_floor('sms_', ${now}::timestamptz) || lpad(i::text, 16, '0'), ${busyTeam}, '+1415555000' || (i % 10), '+1415555', 'US', 'Herald', 'hello',
        'GSM-7', 1, 'USD', 1, 'sent', decode(md5((i % 5)::text), 'hex'), ${now}, ${now}
      FROM generate_series(1, ${CROWD}) AS i`.execute(handle.db);
    await sql`
      INSERT INTO verifications (id, team_id, channel, to_address, to_prefix, country, status, code_hash,
        attempts_remaining, expires_at, client_ip_hash, risk_score, risk_level, risk_reasons, created_at, updated_at)
      SELECT herald_id_floor('ver_', ${now}::timestamptz) || lpad(i::text, 16, '0'), ${busyTeam}, 'sms', '+1415555000' || (i % 10), '+1415555', 'US', 'pending',
        decode(md5(i::text), 'hex'), 5, ${now}, decode(md5((i % 5)::text), 'hex'), 0, 'LOW', '[]', ${now}, ${now}
      FROM generate_series(1, ${CROWD}) AS i`.execute(handle.db);
    await sql`ANALYZE sms_messages`.execute(handle.db);
    await sql`ANALYZE verifications`.execute(handle.db);
  }, 120_000);

  afterAll(async () => {
    for (const team of [busyTeam, quietTeam]) await deleteSmsOfTeam(handle.db, team);
    await handle.db.deleteFrom('teams').where('id', 'in', [busyTeam, quietTeam]).execute();
  });

  const clientIpHash = Buffer.alloc(32, 7);

  it('an SMS send of a quiet team reads no table whole', async () => {
    const statement = sendContextsStatement([
      {
        teamId: quietTeam,
        country: 'US',
        toPrefix: '+1415555',
        toNumber: '+14155550001',
        clientIpHash,
        since,
        cap: 30,
      },
    ]);
    expect(await seqScans(statement)).toEqual([]);
  });

  it('an SMS code send of a quiet team reads no table whole', async () => {
    const statement = sendFactsStatement([
      {
        teamId: quietTeam,
        context: { fromDomain: null, to: null, keyDomainId: null },
        risk: {
          to: '+14155550001',
          clientIpHash,
          toPrefix: '+1415555',
          country: 'US',
          since,
          conversionSince: new Date(now.getTime() - 86_400_000),
          conversionUntil: since,
          conversionSample: 50,
          now,
          cap: 30,
        },
      },
    ]);
    expect(await seqScans(statement)).toEqual([]);
  });
});

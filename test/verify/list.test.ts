// GET /v1/verify (a Herald extension): the team's one-time codes newest first, each as GET
// /v1/verify/{id} shows it; cursor paging that gives every code once (ties on created_at too);
// status, channel and riskLevel filters and limit at their edges; another team's codes never
// listed; the SEND access of reading one code; and the plan that reads a crowded team by index.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam as createTeamRow } from '../../src/accounts/queries.ts';
import { listVerificationsQuery } from '../../src/verify/list-queries.ts';
import { startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import { adminRequest, bearer, createSmsTeam } from '../support/factory.ts';
import { planNodes, seqScanned } from '../support/query-plans.ts';
import { fresh, verify } from './support.ts';

let h: EmailHarness;
let team: SendingTeam;
const sent: Record<string, string> = {};

const US = '+14155552671';
/** Premium-rate (NON_MOBILE_NUMBER) in a new country (NEW_COUNTRY): HIGH, refused. */
const GB_PREMIUM = '+449098765432';

const list = (key: string, query = '') =>
  h.app.inject({ method: 'GET', url: `/api/v1/verify${query}`, headers: bearer(key) });

async function listed(key: string, query = ''): Promise<{ data: { id: string }[]; nextCursor: string | null }> {
  const response = await list(key, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const ids = async (query: string) => (await listed(team.key, query)).data.map((v) => v.id);

/** Sends a code a second after the last (the test clock stands still otherwise). */
async function send(key: string, payload: Record<string, unknown>, status = 201): Promise<string> {
  h.t.clock.advance(1_000);
  const response = await verify(h.app, key).send(payload);
  expect(response.statusCode, response.body).toBe(status);
  return response.json().id;
}

/** The code as its recipient reads it: the built-in subject carries it, and GET /v1/emails shows the subject. */
async function codeOf(verificationId: string): Promise<string> {
  const emailId = (await verify(h.app, team.key).get(verificationId)).json().emailId;
  const email = await h.app.inject({ method: 'GET', url: `/api/v1/emails/${emailId}`, headers: bearer(team.key) });
  return /code: (\d+)$/.exec(email.json().subject)![1]!;
}

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team({ plan: 'pro' });
  await adminRequest(h.app, 'PATCH', `/teams/${team.id}`, { smsEnabled: true });
  await adminRequest(h.app, 'POST', `/teams/${team.id}/wallet/top-ups`, { amountMinor: 10_000 });
  const from = team.from();
  sent.emailLow = await send(team.key, { to: fresh(), from });
  sent.emailMedium = await send(team.key, { to: fresh('mailinator.com'), from });
  sent.verified = await send(team.key, { to: fresh(), from });
  const check = verify(h.app, team.key).check;
  expect((await check({ id: sent.verified, code: await codeOf(sent.verified) })).json().status).toBe('verified');
  sent.failed = await send(team.key, { to: fresh(), from });
  for (let i = 0; i < 5; i++) await check({ id: sent.failed, code: 'x' });
  sent.smsLow = await send(team.key, { to: US, channel: 'sms', appName: 'Acme' });
  sent.refused = await send(team.key, { to: GB_PREMIUM, channel: 'sms', appName: 'Acme' }, 422);
  sent.expired = await send(team.key, { to: fresh(), from, expiresIn: 60 });
  h.t.clock.advance(61_000);
  expect((await check({ id: sent.expired, code: '000000' })).json().status).toBe('expired');
}, 180_000);
afterAll(() => h?.close());

describe('GET /v1/verify', () => {
  it('lists the codes newest first, each exactly as GET /v1/verify/{id} shows it', async () => {
    const page = await listed(team.key);
    expect(page.nextCursor).toBeNull();
    const order = ['expired', 'refused', 'smsLow', 'failed', 'verified', 'emailMedium', 'emailLow'];
    expect(page.data.map((v) => v.id)).toEqual(order.map((name) => sent[name]));
    for (const item of page.data) expect(item).toEqual((await verify(h.app, team.key).get(item.id)).json());
    const byId = new Map(page.data.map((v) => [v.id, v as Record<string, unknown>]));
    expect(byId.get(sent.smsLow!)).toMatchObject({ channel: 'sms', deliveryStatus: 'queued', status: 'pending' });
    expect(byId.get(sent.refused!)).toMatchObject({ status: 'refused', reason: 'refused', risk: { level: 'HIGH' } });
    expect(byId.get(sent.emailMedium!)).toMatchObject({ risk: { level: 'MEDIUM' }, deliveryStatus: null });
  });

  it('filters by status, channel and risk level, alone and together', async () => {
    expect(await ids('?status=pending')).toEqual([sent.smsLow, sent.emailMedium, sent.emailLow]);
    expect(await ids('?status=verified')).toEqual([sent.verified]);
    expect(await ids('?status=failed')).toEqual([sent.failed]);
    expect(await ids('?status=expired')).toEqual([sent.expired]);
    expect(await ids('?status=refused')).toEqual([sent.refused]);
    expect(await ids('?channel=sms')).toEqual([sent.refused, sent.smsLow]);
    expect(await ids('?channel=email')).toEqual([
      sent.expired,
      sent.failed,
      sent.verified,
      sent.emailMedium,
      sent.emailLow,
    ]);
    expect(await ids('?riskLevel=HIGH')).toEqual([sent.refused]);
    expect(await ids('?riskLevel=MEDIUM')).toEqual([sent.emailMedium]);
    expect(await ids('?riskLevel=LOW&channel=email&status=pending')).toEqual([sent.emailLow]);
    expect(await ids('?riskLevel=HIGH&channel=email')).toEqual([]);
  });

  it('answers 400 naming the field for a bad filter, limit or cursor', async () => {
    for (const [query, field] of [
      ['?status=sent', 'status'],
      ['?status=PENDING', 'status'],
      ['?channel=fax', 'channel'],
      ['?riskLevel=low', 'riskLevel'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=1.5', 'limit'],
      ['?limit=x', 'limit'],
      ['?cursor=abc', 'cursor'],
    ] as const) {
      const response = await list(team.key, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('BAD_REQUEST');
      expect(response.json().error.message, query).toContain(field);
    }
    expect((await list(team.key, '?limit=1')).statusCode).toBe(200);
    expect((await list(team.key, '?limit=100')).statusCode).toBe(200);
    // A cursor carries its filters: another filter's cursor is another list's.
    const cursor = (await listed(team.key, '?channel=email&limit=1')).nextCursor!;
    expect((await list(team.key, `?channel=sms&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(400);
    expect((await list(team.key, `?cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(400);
    expect((await list(team.key, `?channel=email&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(200);
  });

  it('pages 50 by default and up to 100, every code once and in order, codes made in the same second too', async () => {
    const crowded = await h.team({ plan: 'pro' });
    const made: string[] = [];
    for (let i = 0; i < 104; i++) {
      // Groups of four share a second, so the id orders codes with one created_at.
      if (i % 4 === 0) h.t.clock.advance(1_000);
      const response = await verify(h.app, crowded.key).send({ to: fresh(), from: crowded.from() });
      expect(response.statusCode, response.body).toBe(201);
      made.push(response.json().id);
    }
    const newestFirst = [...made].sort().reverse();
    const first = await listed(crowded.key);
    expect(first.data).toHaveLength(50);
    expect(first.data.map((v) => v.id)).toEqual(newestFirst.slice(0, 50));
    const widest = await listed(crowded.key, '?limit=100');
    expect(widest.data).toHaveLength(100);

    for (const limit of [1, 7, 50]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await listed(
          crowded.key,
          `?limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        );
        expect(page.data.length).toBeLessThanOrEqual(limit);
        seen.push(...page.data.map((v) => v.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen, `limit ${limit}`).toEqual(newestFirst);
    }
  }, 180_000);

  it("never lists another team's codes, and another team's cursor is refused", async () => {
    const other = await createSmsTeam(h.app);
    const theirs = await send(other.key, { to: '+14155552679', channel: 'sms', appName: 'Other' });
    const ours = await ids('?limit=100');
    expect(ours).not.toContain(theirs);
    expect((await listed(other.key)).data.map((v) => v.id)).toEqual([theirs]);
    const cursor = (await listed(team.key, '?limit=1')).nextCursor!;
    expect((await list(other.key, `?limit=1&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(400);
  });

  it('takes the keys that may read a code (full and sending, domain-limited too) and refuses the others', async () => {
    const everything = await ids('?limit=100');
    const sending = await team.makeKey('sending');
    const pinned = await team.makeKey('sending', { domainId: team.domain.id });
    const pinnedFull = await team.makeKey('full', { domainId: team.domain.id });
    // As with GET /v1/verify/{id}, a key reads every code of its team, not only its own.
    for (const key of [sending, pinned, pinnedFull])
      expect((await listed(key.key, '?limit=100')).data.map((v) => v.id)).toEqual(everything);
    for (const kind of ['readonly', 'sandbox', 'live_ai'] as const) {
      const response = await list((await team.makeKey(kind)).key);
      expect(response.statusCode, kind).toBe(403);
      expect(response.json().error.code, kind).toBe('SCOPE_DENIED');
    }
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/verify' })).statusCode).toBe(401);
  });
});

it("reads a crowded team's newest codes by index, not by reading them all", async () => {
  // 20,000 codes through the API would take minutes; the plan only needs the rows to exist, so they
  // are written straight into the table, as test/sms/sms-delivery-queue.test.ts does.
  const db = h.t.deps.db;
  const now = h.t.clock.now();
  const crowded = (await createTeamRow(db, { name: 'crowded codes' }, now)).id;
  await sql`
    INSERT INTO verifications (id, team_id, channel, to_address, status, code_hash, attempts_remaining, expires_at,
      risk_score, risk_level, risk_reasons, created_at, updated_at)
    SELECT 'ver_crowded_' || i, ${crowded}, 'email', 'x' || i || '@example.com', 'pending', '\\x00', 5,
      ${now}::timestamptz, 0, 'LOW', '[]', ${now}::timestamptz - i * interval '1 second', ${now}
    FROM generate_series(1, 20000) AS i`.execute(db);
  await sql`ANALYZE verifications`.execute(db);
  try {
    const after = { createdAt: new Date(now.getTime() - 5_000_000), id: 'ver_crowded_5000' };
    for (const q of [{ limit: 51 }, { limit: 51, after }, { limit: 51, channel: 'email' as const }]) {
      const nodes = await planNodes(db, listVerificationsQuery(db, crowded, q).compile());
      expect(seqScanned(nodes), JSON.stringify(q)).not.toContain('verifications');
      expect(
        nodes.map((n) => n['Index Name']),
        JSON.stringify(q),
      ).toContain('verifications_team_created');
    }
  } finally {
    await db.deleteFrom('verifications').where('team_id', '=', crowded).execute();
    await db.deleteFrom('teams').where('id', '=', crowded).execute();
  }
});

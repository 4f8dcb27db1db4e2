// The API's shared batch (src/sms/store-batch.ts): concurrent sends of several teams share one
// transaction, each stored by queueSms, and still each message is priced by the parts its team sent
// before it (tiers cross inside a batch), charged once in arrival order, and each team's ledger
// chains exactly. A send its wallet cannot pay for (or a team without a wallet) is refused alone.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPriceList, type PriceList } from '../../src/platform/price-list.ts';
import { readSendContexts } from '../../src/sms/context-queries.ts';
import { prepareSms, smsSendDeps } from '../../src/sms/index.ts';
import { queueSmsSends } from '../../src/sms/queue-sms.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminRequest, bearer, createTeam, type TestTeam } from '../support/factory.ts';
import { REPO_ROOT } from '../support/spawn.ts';

let t: TestApp;

/** The shipped list with tiny US tiers (0–2, 3–5, 6+ parts) priced 3, 2 and 1 cents a part. */
function tinyTiers(): PriceList {
  const list = loadPriceList(path.join(REPO_ROOT, 'config/prices.json'));
  const sms = list.currencies.USD.channels.sms;
  const [starter, growth, scale] = sms.tiers;
  const tiers = [
    { ...starter!, maxVolume: 2 },
    { ...growth!, minVolume: 3, maxVolume: 5 },
    { ...scale!, minVolume: 6 },
  ];
  const lines = sms.lines.map((line) =>
    line.country === 'US' ? { ...line, cells: [30_000n, 20_000n, 10_000n] } : line,
  );
  return {
    ...list,
    currencies: { ...list.currencies, USD: { ...list.currencies.USD, channels: { sms: { ...sms, tiers, lines } } } },
  };
}

beforeAll(async () => {
  t = await createTestApp({ config: { prices: tinyTiers() } });
}, 60_000);
afterAll(() => t.close());

async function smsTeam(balance: number | null): Promise<TestTeam> {
  const team = await createTeam(t.app);
  await adminRequest(t.app, 'PATCH', `/teams/${team.id}`, { smsEnabled: true });
  if (balance !== null) await adminRequest(t.app, 'POST', `/teams/${team.id}/wallet/top-ups`, { amountMinor: balance });
  return team;
}

const send = (team: TestTeam, i: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/sms',
    headers: bearer(team.key),
    payload: { to: `+1415555${String(2600 + i)}`, text: `message ${i}` },
  });

async function ledgerOf(teamId: number) {
  return t.deps.db
    .selectFrom('wallet_transactions')
    .select(['seq', 'type', 'amount', 'balance_after', 'reference'])
    .where('team_id', '=', teamId)
    .orderBy('seq')
    .execute();
}

describe('the shared store batch', () => {
  it('prices by the parts sent before each message and chains every ledger, whatever the batches', async () => {
    const teams = [await smsTeam(10_000), await smsTeam(10_000), await smsTeam(10_000)];
    const answers = await Promise.all(teams.flatMap((team) => Array.from({ length: 8 }, (_, i) => send(team, i))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(24).fill(201));
    for (const team of teams) {
      const ledger = await ledgerOf(team.id);
      expect(ledger.map((row) => row.seq)).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]);
      // In charge order: three parts at 3 cents, three at 2, then 1.
      expect(ledger.slice(1).map((row) => row.amount)).toEqual([-3n, -3n, -3n, -2n, -2n, -2n, -1n, -1n]);
      let balance = 0n;
      for (const row of ledger) {
        balance += row.amount;
        expect(row.balance_after).toBe(balance);
      }
      expect(balance).toBe(10_000n - 17n);
      const wallet = await t.deps.db
        .selectFrom('wallets')
        .select(['balance', 'last_seq'])
        .where('team_id', '=', team.id)
        .executeTakeFirstOrThrow();
      expect(wallet).toEqual({ balance: 10_000n - 17n, last_seq: 9n });
      const volume = await t.deps.db
        .selectFrom('sms_monthly_volume')
        .select('parts')
        .where('team_id', '=', team.id)
        .executeTakeFirstOrThrow();
      expect(volume.parts).toBe(8n);
    }
  });

  it('refuses only what each wallet cannot cover, and a team without a wallet alone', async () => {
    // 3 + 3 = 6 cents: the first two parts; the third (3 cents) does not fit in 7, but a later one never costs less here.
    const short = await smsTeam(7);
    const none = await smsTeam(null);
    const rich = await smsTeam(10_000);
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => send(short, i)),
      ...Array.from({ length: 3 }, (_, i) => send(none, i)),
      ...Array.from({ length: 3 }, (_, i) => send(rich, i)),
    ]);
    const codes = answers.map((a) => a.statusCode);
    expect(codes.slice(0, 4).sort()).toEqual([201, 201, 402, 402]);
    expect(codes.slice(4, 7)).toEqual([402, 402, 402]);
    expect(codes.slice(7)).toEqual([201, 201, 201]);
    expect(answers[5]!.json().error.code).toBe('INSUFFICIENT_BALANCE');
    const shortLedger = await ledgerOf(short.id);
    expect(shortLedger.map((row) => row.balance_after)).toEqual([7n, 4n, 1n]);
    expect(await ledgerOf(none.id)).toEqual([]);
    const stored = await t.deps.db
      .selectFrom('sms_messages')
      .select(['team_id', 'charge_minor'])
      .where('team_id', 'in', [short.id, none.id, rich.id])
      .execute();
    expect(stored.filter((row) => row.team_id === short.id)).toHaveLength(2);
    expect(stored.filter((row) => row.team_id === none.id)).toHaveLength(0);
    expect(stored.filter((row) => row.team_id === rich.id).map((row) => row.charge_minor)).toEqual([3n, 3n, 3n]);
  });
});

describe('queueSmsSends', () => {
  it('a refused send leaves its wallet and parts as they were for the sends after it', async () => {
    const team = await smsTeam(7);
    const deps = smsSendDeps({ ...t.deps, config: t.deps.config });
    const principal = { teamId: team.id, keyId: null };
    const prepared = (i: number) => prepareSms(deps, principal, { to: `+1415555${2700 + i}`, text: `m ${i}` });
    // Three messages at 3 cents do not fit in 7: refused whole. The next send is the month's first part again.
    const sends = [
      { principal, messages: [await prepared(1), await prepared(2), await prepared(3)] },
      { principal, messages: [await prepared(4)] },
    ];
    const outcomes = await t.deps.db.transaction().execute((tx) => queueSmsSends(tx, sends, deps));
    expect(outcomes.map((o) => ('refused' in o ? o.refused.status : o.rows.map((r) => r.charge_minor)))).toEqual([
      402,
      [3n],
    ]);
    expect((await ledgerOf(team.id)).map((row) => row.balance_after)).toEqual([7n, 4n]);
    const wallet = await t.deps.db
      .selectFrom('wallets')
      .select(['balance', 'last_seq'])
      .where('team_id', '=', team.id)
      .executeTakeFirstOrThrow();
    expect(wallet).toEqual({ balance: 4n, last_seq: 2n });
  });
});

describe('the shared context read', () => {
  it("answers each send of one statement with its own team's switch and counts, in order", async () => {
    const on = await smsTeam(1000);
    const off = await createTeam(t.app);
    const sent = await send(on, 90);
    expect(sent.statusCode, sent.body).toBe(201);
    const since = new Date(t.clock.now().getTime() - 60_000);
    const query = { country: 'US', toPrefix: '+1415555', toNumber: '+14155552690', clientIpHash: null, since, cap: 10 };
    const contexts = await readSendContexts(t.deps.db, [
      { ...query, teamId: on.id },
      { ...query, teamId: off.id },
      { ...query, teamId: 2_000_000_000 },
      { ...query, teamId: on.id, country: 'GB', toNumber: '+14155552691' },
    ]);
    expect(contexts.map((c) => c.team?.smsEnabled)).toEqual([true, false, undefined, true]);
    expect(contexts.map((c) => [c.recent.toNumber, c.recent.sentToCountry])).toEqual([
      [1, true],
      [0, false],
      [0, false],
      [0, false],
    ]);
  });
});

// DATABASE_REPLICA_URL against a real streaming replica (a primary and a pg_basebackup replica of
// their own): a list read through the API is served by the replica (replay paused: it answers what
// the replica holds), writes and their own answers by the primary; a replica further behind than
// the bound, or down, sends reads to the primary, with one log line per change and the lag on
// /metrics; back in use once it has caught up.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { buildDeps } from '../../src/build-deps.ts';
import { connectDatabase, type DbHandle } from '../../src/db/connect.ts';
import { migrate } from '../../src/db/migrate.ts';
import { MAX_LAG_MS } from '../../src/db/replica.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { testConfig, type TestApp } from '../support/app.ts';
import { bearer, createTeam } from '../support/factory.ts';
import { pgBinariesPresent, startPgPair, type PgPair } from '../support/pg-replica.ts';

const lines: { msg: string }[] = [];
let pair: PgPair;
let primary: DbHandle;
let t: TestApp;
let key: string;
let bookId: string;

beforeAll(async () => {
  pair = await startPgPair();
  primary = await connectDatabase({ databaseUrl: pair.primaryUrl, dataDir: null });
  await migrate(primary);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const clock = new ManualClock(new Date());
  const config = testConfig({ databaseUrl: pair.primaryUrl, databaseReplicaUrl: pair.replicaUrl });
  const deps = await buildDeps(config, { database: primary, clock, logger: pino({ level: 'info' }, sink) });
  const app = await buildApp(deps);
  await app.ready();
  t = { app, deps, clock, close: async () => (await app.close(), await deps.close()) };
  ({ key } = await createTeam(app));
  const book = await app.inject({
    method: 'POST',
    url: '/api/v1/contactBooks',
    headers: bearer(key),
    payload: { name: 'Readers' },
  });
  bookId = book.json().id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await primary?.close();
  pair?.close();
});

const addContact = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/contactBooks/${bookId}/contacts`,
    headers: bearer(key),
    payload: { email },
  });
const listed = async () =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/contactBooks/${bookId}/contacts`, headers: bearer(key) }))
    .json()
    .map((c: { email: string }) => c.email)
    .sort();
const metric = async (name: string) => {
  const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
};
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 250 });

describe.runIf(pgBinariesPresent())('reads on a streaming replica', () => {
  it('serves list reads from the replica, and from the primary once it lags past the bound', async () => {
    expect((await addContact('a@example.test')).statusCode).toBe(200);
    await poll(listed).toEqual(['a@example.test']);
    expect(await metric('herald_db_replica_in_use')).toBe(1);

    pair.onReplica('SELECT pg_wal_replay_pause()');
    // The write and its answer are the primary's; the list is the replica's, which has not seen it.
    expect((await addContact('b@example.test')).statusCode).toBe(200);
    expect(await listed()).toEqual(['a@example.test']);

    // Past the bound the replica is left: the list is the primary's, and the lag shows.
    await poll(() => metric('herald_db_replica_in_use')).toBe(0);
    expect(await metric('herald_db_replica_lag_seconds')).toBeGreaterThan(MAX_LAG_MS / 1000);
    expect(await listed()).toEqual(['a@example.test', 'b@example.test']);
    expect(lines.filter((l) => /lagging/.test(l.msg))).toHaveLength(1);

    pair.onReplica('SELECT pg_wal_replay_resume()');
    await poll(() => metric('herald_db_replica_in_use')).toBe(1);
    expect(await metric('herald_db_replica_lag_seconds')).toBe(0);
    expect(lines.filter((l) => /in use again/.test(l.msg))).toHaveLength(1);
  }, 60_000);

  it('reads from the primary while the replica is down, and from the replica again once it is back', async () => {
    pair.stopReplica();
    expect((await addContact('c@example.test')).statusCode).toBe(200);
    await poll(listed).toEqual(['a@example.test', 'b@example.test', 'c@example.test']);
    await poll(() => metric('herald_db_replica_in_use')).toBe(0);
    expect(lines.filter((l) => /unreachable/.test(l.msg))).toHaveLength(1);

    pair.startReplica();
    await poll(() => metric('herald_db_replica_in_use')).toBe(1);
    expect(await listed()).toEqual(['a@example.test', 'b@example.test', 'c@example.test']);
    expect(lines.filter((l) => /in use again/.test(l.msg))).toHaveLength(2);
  }, 60_000);
});

// GET /admin/v1/destinations and `herald admin destinations`: the token, what a backed-off
// destination shows (paused or only limited, open slots, why), and the table or JSON it prints.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands } from '../../src/admin/cli-commands.ts';
import { printDestinations } from '../../src/admin/destinations-print.ts';
import { databaseDestinationLedger } from '../../src/destinations/index.ts';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Listed {
  destination: string;
  paused: boolean;
  pausedUntil: string;
  connections: number;
  openConnections: number;
  failures: number;
  reason: string;
}

const list = async (token = TEST_ADMIN_TOKEN) =>
  t.app.inject({ method: 'GET', url: '/admin/v1/destinations', headers: { authorization: `Bearer ${token}` } });

const listed = async (destination: string): Promise<Listed | undefined> =>
  ((await list()).json() as { data: Listed[] }).data.find((d) => d.destination === destination);

describe('GET /admin/v1/destinations', () => {
  it('needs the admin token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/admin/v1/destinations' })).statusCode).toBe(401);
    expect((await list('wrong-token')).statusCode).toBe(401);
  });

  it('lists a destination backed off by any process, with why, until it has recovered', async () => {
    const destination = `mx.${randomBytes(4).toString('hex')}.admin.test`;
    const ledger = databaseDestinationLedger(t.deps.db, t.clock, { warn() {} });
    try {
      const { slot } = await ledger.takeSlot(destination, 5);
      expect(slot).toBe(0);
      await ledger.recordTrouble(destination, {
        reason: '421 4.7.0 Too many connections',
        connections: 2,
        pause: true,
      });
      const paused = await listed(destination);
      expect(paused).toMatchObject({ paused: true, connections: 2, openConnections: 1, failures: 1 });
      expect(paused!.reason).toBe('421 4.7.0 Too many connections');
      expect(new Date(paused!.pausedUntil).getTime()).toBe(t.clock.now().getTime() + 30_000);

      // Paused, no process takes a slot; after the pause, a limited one (2 connections) does.
      expect((await ledger.takeSlot(destination, 5)).slot).toBeNull();
      t.clock.advance(31_000);
      expect(await listed(destination)).toMatchObject({ paused: false, connections: 2 });
      expect((await ledger.takeSlot(destination, 5)).slot).toBe(1);
      expect((await ledger.takeSlot(destination, 5)).slot).toBeNull();

      // Messages get through again: one more connection each, and at the limit the row goes.
      for (let n = 3; n < 5; n += 1) expect((await ledger.recordSuccess(destination, 5))?.connections).toBe(n);
      expect(await ledger.recordSuccess(destination, 5)).toBeNull();
      expect(await listed(destination)).toBeUndefined();
    } finally {
      await ledger.close();
    }
  });
});

describe('herald admin destinations', () => {
  const command = adminCommands.find((c) => c.resource === 'destinations' && c.action === 'list')!;
  const body = {
    data: [
      {
        destination: 'mx1.example.net,mx2.example.net',
        paused: true,
        pausedUntil: '2026-11-29T21:00:30.000Z',
        connections: 2,
        openConnections: 0,
        failures: 1,
        reason: '421 4.7.0 Too many connections',
        updatedAt: '2026-11-29T21:00:00.000Z',
      },
    ],
  };

  it('asks the admin API', () => {
    expect(command.toRequest({}, [])).toEqual({ method: 'GET', path: '/destinations' });
  });

  it('prints a table on a terminal and JSON when piped or with --json', () => {
    const table = printDestinations(body, false).split('\n');
    expect(table[0]).toMatch(/^DESTINATION\s+STATE\s+UNTIL\s+CONNECTIONS\s+OPEN\s+PAUSES\s+WHY$/);
    expect(table[1]).toMatch(
      /^mx1\.example\.net,mx2\.example\.net\s+paused\s+2026-11-29T21:00:30\.000Z\s+2\s+0\s+1\s+421 4\.7\.0 Too many connections$/,
    );
    expect(JSON.parse(printDestinations(body, true))).toEqual(body);
    expect(printDestinations({ data: [] }, false)).toBe('No destination is backed off.\n');
  });
});

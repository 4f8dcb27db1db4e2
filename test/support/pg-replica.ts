// A PostgreSQL primary and its streaming replica of their own, on free loopback ports in a temporary
// directory: initdb, then pg_basebackup -R, as an operator sets one up. Run as the postgres user
// when the tests run as root (PostgreSQL refuses root); removed by close().
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './spawn.ts';

const BIN = '/usr/lib/postgresql/15/bin';

export interface PgPair {
  primaryUrl: string;
  replicaUrl: string;
  /** SQL on the replica as a superuser (pausing replay). */
  onReplica(sql: string): string;
  stopReplica(): void;
  startReplica(): void;
  close(): void;
}

export const pgBinariesPresent = () => fs.existsSync(path.join(BIN, 'initdb'));

export async function startPgPair(): Promise<PgPair> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-pg-pair-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', root]);
  const run = (file: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : file, asRoot ? ['-u', 'postgres', '--', file, ...args] : args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  const options = (port: number) => `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (dir: string, port: number, action: 'start' | 'stop') =>
    run(path.join(BIN, 'pg_ctl'), [
      '-D',
      dir,
      '-w',
      ...(action === 'start' ? ['-o', options(port), '-l', `${dir}.log`] : ['-m', 'immediate']),
      action,
    ]);
  const psql = (port: number, sql: string, database = 'postgres') =>
    run('/usr/bin/psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-tAc', sql]);

  run(path.join(BIN, 'initdb'), ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
  pgCtl(primaryDir, primaryPort, 'start');
  psql(primaryPort, 'CREATE DATABASE herald');
  run(path.join(BIN, 'pg_basebackup'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    replicaDir,
    '-R',
    '-X',
    'stream',
    '--no-sync',
  ]);
  pgCtl(replicaDir, replicaPort, 'start');
  const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/herald`;
  return {
    primaryUrl: url(primaryPort),
    replicaUrl: url(replicaPort),
    onReplica: (sql) => psql(replicaPort, sql, 'herald').trim(),
    stopReplica: () => pgCtl(replicaDir, replicaPort, 'stop'),
    startReplica: () => pgCtl(replicaDir, replicaPort, 'start'),
    close() {
      for (const [dir, port] of [
        [replicaDir, replicaPort],
        [primaryDir, primaryPort],
      ] as const)
        try {
          pgCtl(dir, port, 'stop');
        } catch {
          // Already stopped.
        }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

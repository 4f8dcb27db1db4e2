// A new embedded data directory is a copy of the migrated template (src/db/embedded-template.ts): made
// once per PGlite version, set of migrations and month, never copied over an existing database, and
// a failure to make it leaves nothing behind (the directory is then made in place).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import { seedFromTemplate } from '../../src/db/embedded-template.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-template-test-'));
  made.push(dir);
  return dir;
};

const migrations = [
  { name: '0001_a', sql: 'CREATE TABLE a (id int)' },
  { name: '0002_b', sql: 'CREATE TABLE b (id int)' },
];
const december = new Date('2026-12-01T00:00:00Z');

/** A stand-in for PGlite and the migrations: the files a migrated directory would hold, counted. */
function fakeMaker() {
  const calls: string[] = [];
  const make = async (dir: string) => {
    calls.push(dir);
    fs.writeFileSync(path.join(dir, 'PG_VERSION'), '17\n');
    fs.mkdirSync(path.join(dir, 'base'));
    fs.writeFileSync(path.join(dir, 'base', 'tables'), `made ${calls.length}`);
  };
  return { calls, make };
}

describe('the embedded template', () => {
  it('is made once and copied into each new data directory, beside what the directory held', async () => {
    const root = tempDir();
    const { calls, make } = fakeMaker();
    const first = tempDir();
    fs.writeFileSync(path.join(first, 'secrets.json'), '{}');
    expect(await seedFromTemplate(first, migrations, make, { now: december, root })).toEqual(['0001_a', '0002_b']);
    const second = tempDir();
    expect(await seedFromTemplate(second, migrations, make, { now: december, root })).toEqual(['0001_a', '0002_b']);
    expect(calls).toHaveLength(1);
    for (const dir of [first, second]) expect(fs.readFileSync(path.join(dir, 'base', 'tables'), 'utf8')).toBe('made 1');
    expect(fs.readFileSync(path.join(first, 'secrets.json'), 'utf8')).toBe('{}');
    expect(fs.readdirSync(root)).toHaveLength(1);
  });

  it('is never copied over a database PGlite has made', async () => {
    const root = tempDir();
    const { calls, make } = fakeMaker();
    const existing = tempDir();
    fs.writeFileSync(path.join(existing, 'PG_VERSION'), '17\n');
    expect(await seedFromTemplate(existing, migrations, make, { now: december, root })).toBeNull();
    expect(calls).toHaveLength(0);
    expect(fs.readdirSync(existing)).toEqual(['PG_VERSION']);
  });

  it('is made again for other migrations or another month, and an old unused one is removed', async () => {
    const root = tempDir();
    const { calls, make } = fakeMaker();
    await seedFromTemplate(tempDir(), migrations, make, { now: december, root });
    const [decemberTemplate] = fs.readdirSync(root);
    // A template made more than a day ago is not being copied any more: the next one made removes it.
    const dayAndAgo = new Date(Date.now() - 2 * 86_400_000);
    fs.utimesSync(path.join(root, decemberTemplate!), dayAndAgo, dayAndAgo);
    const changed = [...migrations, { name: '0003_c', sql: 'CREATE TABLE c (id int)' }];
    expect(await seedFromTemplate(tempDir(), changed, make, { now: december, root })).toHaveLength(3);
    expect(fs.readdirSync(root)).not.toContain(decemberTemplate);
    await seedFromTemplate(tempDir(), changed, make, { now: new Date('2027-01-01T00:00:00Z'), root });
    expect(calls).toHaveLength(3);
    // The December one of the changed migrations is younger than a day: another process may be copying it.
    expect(fs.readdirSync(root)).toHaveLength(2);
  });

  it('leaves nothing behind when it cannot be made, and the directory is made in place', async () => {
    const root = tempDir();
    const dataDir = tempDir();
    const failing = async (dir: string) => {
      fs.writeFileSync(path.join(dir, 'half'), 'written');
      throw new Error('the disk is full');
    };
    expect(await seedFromTemplate(dataDir, migrations, failing, { now: december, root })).toBeNull();
    expect(fs.readdirSync(root)).toEqual([]);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('gives a new embedded database every migration, which migrate reports once', { timeout: 120_000 }, async () => {
    const dataDir = tempDir();
    const handle = await connectDatabase({ databaseUrl: null, dataDir });
    try {
      expect(await migrate(handle)).toEqual(listMigrations().map((m) => m.name));
      expect(await migrate(handle)).toEqual([]);
    } finally {
      await handle.close();
    }
    const reopened = await connectDatabase({ databaseUrl: null, dataDir });
    try {
      expect(await migrate(reopened)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });
});

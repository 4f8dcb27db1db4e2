// A new embedded data directory is a copy of the migrated template (src/db/embedded-template.ts): made
// once per PGlite version and set of migrations, never copied over an existing database; a
// failure to make it leaves nothing behind, and without it a directory is made in place.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase, makeEmbeddedTemplate } from '../../src/db/connect.ts';
import { makeTemplate, seedFromTemplate } from '../../src/db/embedded-template.ts';
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
    const where = { root };
    const { calls, make } = fakeMaker();
    const first = tempDir();
    expect(seedFromTemplate(first, migrations, where)).toBeNull(); // none made yet: made in place
    expect(fs.readdirSync(first)).toEqual([]);
    const folder = await makeTemplate(migrations, make, where);
    expect(await makeTemplate(migrations, make, where)).toBe(folder);
    expect(calls).toHaveLength(1);
    fs.writeFileSync(path.join(first, 'secrets.json'), '{}');
    const second = tempDir();
    for (const dir of [first, second]) {
      expect(seedFromTemplate(dir, migrations, where)).toEqual(['0001_a', '0002_b']);
      expect(fs.readFileSync(path.join(dir, 'base', 'tables'), 'utf8')).toBe('made 1');
    }
    expect(fs.readFileSync(path.join(first, 'secrets.json'), 'utf8')).toBe('{}');
    expect(fs.readdirSync(root)).toHaveLength(1);
  });

  it('is never copied over a database PGlite has made', async () => {
    const root = tempDir();
    await makeTemplate(migrations, fakeMaker().make, { root });
    const existing = tempDir();
    fs.writeFileSync(path.join(existing, 'PG_VERSION'), '17\n');
    expect(seedFromTemplate(existing, migrations, { root })).toBeNull();
    expect(fs.readdirSync(existing)).toEqual(['PG_VERSION']);
  });

  it('is one per set of migrations, and an old unused one is removed', async () => {
    const root = tempDir();
    const { calls, make } = fakeMaker();
    await makeTemplate(migrations, make, { root });
    const [older] = fs.readdirSync(root);
    const changed = [...migrations, { name: '0003_c', sql: 'CREATE TABLE c (id int)' }];
    expect(seedFromTemplate(tempDir(), changed, { root })).toBeNull(); // made in place
    await makeTemplate(changed, make, { root });
    expect(seedFromTemplate(tempDir(), changed, { root })).toHaveLength(3);
    // The older one is younger than a day: another process may be copying it.
    expect(fs.readdirSync(root)).toHaveLength(2);
    // Made more than a day ago, it is not being copied any more: the next one made removes it.
    const dayAndAgo = new Date(Date.now() - 2 * 86_400_000);
    fs.utimesSync(path.join(root, older!), dayAndAgo, dayAndAgo);
    await makeTemplate([...changed, { name: '0004_d', sql: 'CREATE TABLE d (id int)' }], make, { root });
    expect(calls).toHaveLength(3);
    expect(fs.readdirSync(root)).not.toContain(older);
    expect(fs.readdirSync(root)).toHaveLength(2);
  });

  it('leaves nothing behind when it cannot be made', async () => {
    const root = tempDir();
    const failing = async (dir: string) => {
      fs.writeFileSync(path.join(dir, 'half'), 'written');
      throw new Error('the disk is full');
    };
    expect(await makeTemplate(migrations, failing, { root })).toBeNull();
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('gives a new embedded database every migration, which migrate reports once', { timeout: 120_000 }, async () => {
    expect(await makeEmbeddedTemplate()).not.toBeNull();
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

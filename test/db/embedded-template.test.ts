// A new embedded data directory is a copy of a template (src/db/embedded-template.ts): PGlite's
// initialised database made once per PGlite version, and it migrated once per set of migrations; the
// template holding the longest prefix of the migrations is copied, never over an existing database;
// a failure to make one leaves nothing behind, and without any a directory is made in place.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeEmbedded } from '../support/embedded-only.ts';
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

/** A stand-in for PGlite and the migrations: the files a directory would hold, each call counted. */
function fakeMaker() {
  const calls: string[] = [];
  const make = async (dir: string, options: { migrate: boolean }) => {
    calls.push(options.migrate ? 'migrated' : 'initialised');
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
      fs.writeFileSync(path.join(dir, 'PG_VERSION'), '17\n');
      fs.mkdirSync(path.join(dir, 'base'));
    }
    fs.writeFileSync(path.join(dir, 'base', 'tables'), `made ${calls.length}`);
  };
  return { calls, make };
}

describeEmbedded('the embedded template', () => {
  it('is made once and copied into each new data directory, beside what the directory held', async () => {
    const root = tempDir();
    const where = { root };
    const { calls, make } = fakeMaker();
    const first = tempDir();
    expect(seedFromTemplate(first, migrations, where)).toBeNull(); // none made yet: made in place
    expect(fs.readdirSync(first)).toEqual([]);
    const folder = await makeTemplate(migrations, make, where);
    expect(await makeTemplate(migrations, make, where)).toBe(folder);
    expect(calls).toEqual(['initialised', 'migrated']);
    fs.writeFileSync(path.join(first, 'secrets.json'), '{}');
    const second = tempDir();
    for (const dir of [first, second]) {
      expect(seedFromTemplate(dir, migrations, where)).toEqual(['0001_a', '0002_b']);
      expect(fs.readFileSync(path.join(dir, 'base', 'tables'), 'utf8')).toBe('made 2');
    }
    expect(fs.readFileSync(path.join(first, 'secrets.json'), 'utf8')).toBe('{}');
    expect(fs.readdirSync(root)).toHaveLength(2);
  });

  it('is never copied over a database PGlite has made', async () => {
    const root = tempDir();
    await makeTemplate(migrations, fakeMaker().make, { root });
    const existing = tempDir();
    fs.writeFileSync(path.join(existing, 'PG_VERSION'), '17\n');
    expect(seedFromTemplate(existing, migrations, { root })).toBeNull();
    expect(fs.readdirSync(existing)).toEqual(['PG_VERSION']);
  });

  it('is one per set of migrations, the longest prefix is copied, and an old unused one is removed', async () => {
    const root = tempDir();
    const { calls, make } = fakeMaker();
    const older = path.basename((await makeTemplate(migrations, make, { root }))!);
    const added = [...migrations, { name: '0003_c', sql: 'CREATE TABLE c (id int)' }];
    // A migration added since: the older template holds the first two, migrate applies the third.
    expect(seedFromTemplate(tempDir(), added, { root })).toEqual(['0001_a', '0002_b']);
    // A migration changed since: only PGlite's initialised database is copied.
    const changed = [migrations[0]!, { name: '0002_b', sql: 'CREATE TABLE b (id bigint)' }];
    const initialised = tempDir();
    expect(seedFromTemplate(initialised, changed, { root })).toEqual([]);
    expect(fs.readFileSync(path.join(initialised, 'base', 'tables'), 'utf8')).toBe('made 1');
    await makeTemplate(added, make, { root });
    expect(calls).toEqual(['initialised', 'migrated', 'migrated']);
    expect(seedFromTemplate(tempDir(), added, { root })).toHaveLength(3);
    // The older one is younger than a day: another process may be copying it.
    expect(fs.readdirSync(root)).toHaveLength(3);
    // Made more than a day ago, it is not being copied any more: the next one made removes it.
    const dayAndAgo = new Date(Date.now() - 2 * 86_400_000);
    fs.utimesSync(path.join(root, older), dayAndAgo, dayAndAgo);
    await makeTemplate([...added, { name: '0004_d', sql: 'CREATE TABLE d (id int)' }], make, { root });
    expect(calls).toHaveLength(4);
    expect(fs.readdirSync(root)).not.toContain(older);
    expect(fs.readdirSync(root)).toHaveLength(3);
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

  it(
    "gives a directory copied from PGlite's initialised database alone every migration",
    { timeout: 120_000 },
    async () => {
      const root = tempDir();
      const migrated = await makeEmbeddedTemplate({ root });
      expect(migrated).not.toBeNull();
      fs.rmSync(migrated!, { recursive: true });
      const dataDir = tempDir();
      expect(seedFromTemplate(dataDir, listMigrations(), { root })).toEqual([]);
      const handle = await connectDatabase({ databaseUrl: null, dataDir });
      try {
        expect(await migrate(handle)).toEqual(listMigrations().map((m) => m.name));
      } finally {
        await handle.close();
      }
    },
  );
});

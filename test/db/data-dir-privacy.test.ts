// makeDataDirPrivate on a real directory: loose folders and files become 0700 and 0600; the blob
// store's folder is made owner-only but not walked (it writes its own modes and may hold many files).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { makeDataDirPrivate } from '../../src/db/data-dir-privacy.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-privacy-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const mode = (relative: string) => (fs.statSync(path.join(dataDir, relative)).mode & 0o777).toString(8);

it('makes folders 0700 and files 0600, and only closes the blob store folder', () => {
  fs.mkdirSync(path.join(dataDir, 'pgdata/base'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'pgdata/base/1'), 'x');
  fs.mkdirSync(path.join(dataDir, 'blobs/inbound/2026-11-25-10'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'blobs/inbound/2026-11-25-10/pack_a.pack'), 'x');
  for (const relative of ['.', 'pgdata', 'pgdata/base', 'blobs', 'blobs/inbound', 'blobs/inbound/2026-11-25-10'])
    fs.chmodSync(path.join(dataDir, relative), 0o777);
  for (const relative of ['pgdata/base/1', 'blobs/inbound/2026-11-25-10/pack_a.pack'])
    fs.chmodSync(path.join(dataDir, relative), 0o666);

  expect(makeDataDirPrivate(dataDir)).toBe(5);
  expect([mode('.'), mode('pgdata'), mode('pgdata/base'), mode('pgdata/base/1')]).toEqual(['700', '700', '700', '600']);
  expect(mode('blobs')).toBe('700');
  // Behind an owner-only folder: nobody else can reach it, and the walk did not go in.
  expect(mode('blobs/inbound')).toBe('777');
  expect(makeDataDirPrivate(dataDir)).toBe(0);
});

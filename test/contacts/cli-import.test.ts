// `herald admin contacts import` as a real child process: over HTTP to a running server (which holds
// the data directory), and in process when none runs. JSON summary on stdout, progress on stderr
// (a line per batch: stderr is a pipe here), the rejected rows beside the file.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeEmbedded } from '../support/embedded-only.ts';
import { parseCsv } from '../../src/contacts/csv.ts';
import {
  cleanUpHeralds,
  freePort,
  heraldEnv,
  http,
  makeDataDir,
  runHerald,
  startHealthy,
  waitForBanner,
} from '../support/spawn.ts';

afterEach(cleanUpHeralds);

describeEmbedded('herald admin contacts import', { timeout: 180_000 }, () => {
  it('imports a file through the running server and writes the rejected rows', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const env = heraldEnv(dataDir, port);
    const server = await startHealthy(env, port);
    const { key } = await waitForBanner(server);
    const { teamId } = (await http(port, 'GET', '/api/v1/whoami', key)).body as { teamId: number };
    const book = (await http(port, 'POST', '/api/v1/contactBooks', key, { name: 'CLI' })).body as { id: string };

    const file = path.join(dataDir, 'contacts.csv');
    fs.writeFileSync(
      file,
      'email,firstName,subscribed,city\na@example.com,A,yes,Lagos\nb@example.com,B,no,\na@example.com,Again,1,\nbad,X,1,\n',
    );
    const result = await runHerald(
      ['admin', 'contacts', 'import', '--team', String(teamId), '--book', book.id, file],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      file,
      rows: 4,
      created: 2,
      updated: 0,
      rejected: 2,
      rejectedFile: `${file}.rejected.csv`,
    });
    expect(result.stderr).toContain('import: 4/4 rows, 2 created, 0 updated, 2 rejected');
    expect(server.stdout()).toContain(`"url":"/admin/v1/teams/${teamId}/contact-books/${book.id}/contacts/import"`);
    const rejected = parseCsv(fs.readFileSync(`${file}.rejected.csv`, 'utf8')).map((r) => r.fields);
    expect(rejected.map((r) => r[0])).toEqual(['line', '4', '5']);

    const listed = await http(port, 'GET', `/api/v1/contactBooks/${book.id}/contacts`, key);
    expect(
      (listed.body as { email: string; properties: Record<string, string> }[]).map((c) => [c.email, c.properties]),
    ).toEqual([
      ['a@example.com', { city: 'Lagos' }],
      ['b@example.com', {}],
    ]);
  });

  it('runs in process without a server, and reports usage and lookup errors', async () => {
    const dataDir = makeDataDir();
    const env = heraldEnv(dataDir, await freePort());
    const team = JSON.parse((await runHerald(['admin', 'teams', 'create', '--name', 'Importers'], env)).stdout) as {
      id: number;
    };
    const file = path.join(dataDir, 'one.csv');
    fs.writeFileSync(file, 'email\none@example.com\n');

    const missingBook = await runHerald(
      ['admin', 'contacts', 'import', '--team', String(team.id), '--book', 'cb_missing', file],
      env,
    );
    expect(missingBook.code).toBe(1);
    expect(missingBook.stdout).toBe('');
    expect(missingBook.stderr).toMatch(/^herald admin: NOT_FOUND: Contact book not found/m);

    const noFile = await runHerald(
      ['admin', 'contacts', 'import', '--team', String(team.id), '--book', 'cb_x', path.join(dataDir, 'nope.csv')],
      env,
    );
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('cannot read');
    const noBook = await runHerald(['admin', 'contacts', 'import', '--team', String(team.id), file], env);
    expect(noBook.code).toBe(2);
    expect(noBook.stderr).toContain('--book');
  });
});

// The CSV import (`herald admin contacts import`) in process: the real import driver sending its
// batches to the real admin endpoint, against the real database. A file with good, duplicate and
// bad rows gives the summary and the rejected file; batches go through the bulk add's path.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCsv, parseCsv } from '../../src/contacts/csv.ts';
import { importContactsCsv, stderrProgress, type SendAdminRequest } from '../../src/contacts/csv-import.ts';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { contactsClient, type Contact } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof contactsClient>;
let dir: string;
let requests: number;

beforeAll(async () => {
  t = await createTestApp();
  team = await createTeam(t.app);
  api = contactsClient(t.app, team.key);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-import-'));
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await t.close();
});

const send: SendAdminRequest = async (request) => {
  requests++;
  const response = await t.app.inject({
    method: request.method,
    url: `/admin/v1${request.path}`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    payload: request.body,
  });
  return { status: response.statusCode, body: response.body };
};

function writeFile(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** A stream stand-in that records what is written. */
function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { stream: { isTTY, write: (chunk: string) => writes.push(chunk) } as unknown as NodeJS.WriteStream, writes };
}

const contactsOf = async (bookId: string) => (await api.list(bookId, '?limit=200')).json() as Contact[];

describe('CSV reader', () => {
  it('reads RFC 4180 quoting: commas, doubled quotes, line breaks, CRLF, a BOM and blank lines', () => {
    const text = '\uFEFFemail,note\r\na@x.io,"one, two"\r\n\r\nb@x.io,"say ""hi"""\nc@x.io,"two\nlines"\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['email', 'note'] },
      { line: 2, fields: ['a@x.io', 'one, two'] },
      { line: 4, fields: ['b@x.io', 'say "hi"'] },
      { line: 5, fields: ['c@x.io', 'two\nlines'] },
    ]);
    expect(parseCsv('a,b')).toEqual([{ line: 1, fields: ['a', 'b'] }]);
    expect(parseCsv('a,,\n')).toEqual([{ line: 1, fields: ['a', '', ''] }]);
    expect(() => parseCsv('a,"open\n')).toThrow(/not closed/);
  });

  it('writes what it reads back', () => {
    const rows = [['plain', 'with, comma', 'with "quote"', 'two\nlines', ' padded ']];
    expect(parseCsv(formatCsv(rows)).map((r) => r.fields)).toEqual(rows);
  });
});

describe('import', () => {
  it('imports good rows, updates existing contacts, rejects duplicate and bad rows with reasons', async () => {
    const book = await api.book({ name: 'Imported' });
    const existing = await api.contact(book.id, { email: 'known@example.com', firstName: 'Known' });
    const file = writeFile(
      'people.csv',
      [
        'email,First Name,last_name,subscribed,company,plan',
        'Ada@Example.com,Ada,Lovelace,yes,Analytical,pro', // 2 created
        'known@example.com,,Person,1,,', // 3 updated (empty cells leave fields as they are)
        'grace@example.com,Grace,Hopper,no,Navy,', // 4 created, unsubscribed
        'ada@example.com,Ada,Again,true,,', // 5 duplicate of line 2
        'not-an-email,X,Y,true,,', // 6 bad email
        'maybe@example.com,M,N,perhaps,,', // 7 bad subscribed
        'short@example.com,S', // 8 wrong number of fields
        '"quoted@example.com","Q, the first",Quote,0,"Acme, Inc.",free', // 9 created
      ].join('\n'),
    );
    requests = 0;
    const summary = await importContactsCsv({ teamId: team.id, bookId: book.id, file, send });
    expect(summary).toEqual({
      file,
      rows: 8,
      created: 3,
      updated: 1,
      rejected: 4,
      rejectedFile: `${file}.rejected.csv`,
    });
    expect(requests).toBe(1);

    const stored = await contactsOf(book.id);
    const byEmail = new Map(stored.map((c) => [c.email, c]));
    expect([...byEmail.keys()].sort()).toEqual([
      'ada@example.com',
      'grace@example.com',
      'known@example.com',
      'quoted@example.com',
    ]);
    expect(byEmail.get('ada@example.com')).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      subscribed: true,
      properties: { company: 'Analytical', plan: 'pro' },
    });
    expect(byEmail.get('known@example.com')).toMatchObject({
      id: existing,
      firstName: 'Known',
      lastName: 'Person',
      subscribed: true,
    });
    expect(byEmail.get('grace@example.com')).toMatchObject({ subscribed: false, properties: { company: 'Navy' } });
    expect(byEmail.get('quoted@example.com')).toMatchObject({
      firstName: 'Q, the first',
      subscribed: false,
      properties: { company: 'Acme, Inc.', plan: 'free' },
    });

    const rejected = parseCsv(fs.readFileSync(summary.rejectedFile!, 'utf8')).map((r) => r.fields);
    expect(rejected[0]).toEqual([
      'line',
      'reason',
      'email',
      'First Name',
      'last_name',
      'subscribed',
      'company',
      'plan',
    ]);
    expect(rejected.slice(1).map((r) => [r[0], r[2]])).toEqual([
      ['5', 'ada@example.com'],
      ['6', 'not-an-email'],
      ['7', 'maybe@example.com'],
      ['8', 'short@example.com'],
    ]);
    expect(rejected[1]![1]).toContain('line 2');
    expect(rejected[2]![1]).toContain('email');
    expect(rejected[3]![1]).toContain('subscribed');
    expect(rejected[4]![1]).toContain('fields');
  });

  it('sends batches of at most 1,000 through the bulk add, with a line per batch when stderr is not a terminal', async () => {
    const book = await api.book({ name: 'Big' });
    const lines = ['email,firstName', ...Array.from({ length: 2500 }, (_, i) => `p${i}@example.com,P${i}`)];
    const file = writeFile('big.csv', lines.join('\r\n'));
    const { stream, writes } = fakeStream(false);
    requests = 0;
    const summary = await importContactsCsv({
      teamId: team.id,
      bookId: book.id,
      file,
      send,
      progress: stderrProgress(stream),
    });
    expect(summary).toMatchObject({ rows: 2500, created: 2500, updated: 0, rejected: 0, rejectedFile: null });
    expect(requests).toBe(3);
    expect(writes).toEqual([
      'import: 1000/2500 rows, 1000 created, 0 updated, 0 rejected\n',
      'import: 2000/2500 rows, 2000 created, 0 updated, 0 rejected\n',
      'import: 2500/2500 rows, 2500 created, 0 updated, 0 rejected\n',
    ]);
    expect(fs.existsSync(`${file}.rejected.csv`)).toBe(false);
    expect((await api.getBook(book.id)).json()).toMatchObject({ _count: { contacts: 2500 } });

    // Again: every row is now an update.
    const again = await importContactsCsv({ teamId: team.id, bookId: book.id, file, send });
    expect(again).toMatchObject({ created: 0, updated: 2500, rejected: 0 });
  });

  it('draws a bar in place on a terminal', async () => {
    const book = await api.book();
    const file = writeFile('tty.csv', 'email\na@example.com\nb@example.com\n');
    const { stream, writes } = fakeStream(true);
    await importContactsCsv({ teamId: team.id, bookId: book.id, file, send, progress: stderrProgress(stream) });
    expect(writes[0]).toMatch(/^\r\[#{30}\] 2\/2 rows, 2 created/);
    expect(writes.at(-1)).toBe('\n');
  });

  it('puts new contacts of a double opt-in book into the confirmation state', async () => {
    const book = await api.book({ doubleOptInEnabled: true });
    const file = writeFile('optin.csv', 'email,subscribed\nopt@example.com,true\n');
    await importContactsCsv({ teamId: team.id, bookId: book.id, file, send });
    const row = await t.deps.db
      .selectFrom('contacts')
      .select(['subscribed', 'confirmed_at', 'confirmation_due_at'])
      .where('team_id', '=', team.id)
      .where('contact_book_id', '=', book.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ subscribed: false, confirmed_at: null, confirmation_due_at: expect.any(Date) });
  });

  it("stops with a message for another team's or a missing book, and for a file without an email column", async () => {
    const book = await api.book();
    const other = await createTeam(t.app);
    const file = writeFile('ok.csv', 'email\nx@example.com\n');
    await expect(importContactsCsv({ teamId: other.id, bookId: book.id, file, send })).rejects.toThrow(
      /Contact book not found/,
    );
    await expect(importContactsCsv({ teamId: 999_999, bookId: book.id, file, send })).rejects.toThrow(/team not found/);
    expect(await contactsOf(book.id)).toEqual([]);
    const noEmail = writeFile('no-email.csv', 'name\nX\n');
    await expect(importContactsCsv({ teamId: team.id, bookId: book.id, file: noEmail, send })).rejects.toThrow(
      /no email column/,
    );
  });

  it('the admin endpoint refuses more than 1,000 contacts and answers 401 without the token', async () => {
    const book = await api.book();
    const url = `/admin/v1/teams/${team.id}/contact-books/${book.id}/contacts/import`;
    const contacts = (n: number) => Array.from({ length: n }, (_, i) => ({ email: `e${i}@example.com` }));
    const headers = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    expect(
      (await t.app.inject({ method: 'POST', url, headers, payload: { contacts: contacts(1001) } })).statusCode,
    ).toBe(400);
    const ok = await t.app.inject({ method: 'POST', url, headers, payload: { contacts: contacts(1000) } });
    expect(ok.json()).toEqual({ message: expect.any(String), count: 1000, created: 1000, updated: 0 });
    expect((await t.app.inject({ method: 'POST', url, payload: { contacts: contacts(1) } })).statusCode).toBe(401);
  });
});

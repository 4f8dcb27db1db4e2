// The operator's sign-in links (issue 45): POST /admin/v1/sign-in-links (`herald admin sign-in-link
// <email>`) answers a one-time link for a member's address, valid an hour; the first start's banner
// prints one for the first owner.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runAdminCli } from '../../src/admin-cli.ts';
import { adminCommands, type AdminRequest } from '../../src/admin/cli-commands.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { applyMigrations, bootstrapAndGreet, openRuntime } from '../../src/runtime.ts';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';
import { createSession, setCookieOf } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const mint = (email: string, token = TEST_ADMIN_TOKEN) =>
  t.app.inject({
    method: 'POST',
    url: '/admin/v1/sign-in-links',
    headers: { authorization: `Bearer ${token}` },
    payload: { email },
  });

describe('POST /admin/v1/sign-in-links', () => {
  it("answers a link to the dashboard for a member's address, which signs in once within the hour", async () => {
    const team = await createTeam(t.app);
    const { email } = await t.deps.db
      .selectFrom('members')
      .select('email')
      .where('id', '=', team.ownerId)
      .executeTakeFirstOrThrow();
    const minted = await mint(email.toUpperCase());
    expect(minted.statusCode, minted.body).toBe(201);
    const { url, expiresAt } = minted.json();
    expect(url).toMatch(new RegExp(`^${t.deps.config.publicUrl}/sign-in/[A-Za-z0-9_-]{43}$`));
    expect(new Date(expiresAt).getTime()).toBe(t.clock.now().getTime() + 60 * 60_000);
    expect(minted.headers['cache-control']).toBe('no-store');
    const token = url.split('/').pop();
    const session = await createSession(t, { token });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().member.email).toBe(email);
    expect(setCookieOf(session).value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await createSession(t, { token })).statusCode).toBe(400);
  });

  it('an hour later the link is dead', async () => {
    const team = await createTeam(t.app);
    const { email } = await t.deps.db
      .selectFrom('members')
      .select('email')
      .where('id', '=', team.ownerId)
      .executeTakeFirstOrThrow();
    const token = (await mint(email)).json().url.split('/').pop();
    t.clock.advance(60 * 60_000);
    expect((await createSession(t, { token })).statusCode).toBe(400);
  });

  it('404 naming email for an address that is no member; 401 without the admin token', async () => {
    const stranger = await mint('nobody-at-all@example.test');
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.message).toMatch(/^email: /);
    expect((await mint('nobody-at-all@example.test', 'wrong-token')).statusCode).toBe(401);
  });

  it('`herald admin sign-in-link EMAIL` maps to it', async () => {
    const command = adminCommands.find((c) => c.resource === 'sign-in-link' && c.action === 'create')!;
    const request = command.toRequest({}, ['owner@example.test']) as AdminRequest;
    expect(request).toEqual({ method: 'POST', path: '/sign-in-links', body: { email: 'owner@example.test' } });
    expect(() => command.toRequest({}, [])).toThrow(/email/);
  });
});

// A fresh embedded database migrated from nothing: seconds on a loaded machine.
describe('the first start', { timeout: 120_000 }, () => {
  it('prints a one-time sign-in link for the first owner beside the API key', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-first-sign-in-'));
    const runtime = await openRuntime(loadConfig({ HERALD_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), {
      logger: pino({ level: 'silent' }),
    });
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await applyMigrations(runtime);
      await bootstrapAndGreet(runtime);
      const banner = write.mock.calls.join('');
      const match = /Dashboard sign-in: +(\S+\/sign-in\/([A-Za-z0-9_-]{43}))/.exec(banner);
      expect(match, banner).not.toBeNull();
      expect(match![1]!.startsWith(runtime.deps.config.publicUrl)).toBe(true);
      expect(banner).toContain(`herald admin sign-in-link owner@${runtime.deps.config.mailDomain}`);
      const rows = await runtime.deps.db.selectFrom('sign_in_requests').select(['email', 'code_hash']).execute();
      expect(rows).toEqual([{ email: `owner@${runtime.deps.config.mailDomain}`, code_hash: null }]);
      // The link signs the owner in.
      const app = await buildApp(runtime.deps);
      try {
        const session = await app.inject({ method: 'POST', url: '/api/v1/session', payload: { token: match![2] } });
        expect(session.statusCode, session.body).toBe(200);
        expect(session.json().team).toMatchObject({ id: 1, role: 'OWNER' });
      } finally {
        await app.close();
      }
    } finally {
      write.mockRestore();
      await runtime.close();
    }

    // `herald admin sign-in-link EMAIL` against that data directory (served in process), the
    // address where an action would be.
    const saved = { dir: process.env.HERALD_DATA_DIR, url: process.env.DATABASE_URL, log: process.env.LOG_LEVEL };
    const output = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      process.env.HERALD_DATA_DIR = dataDir;
      process.env.LOG_LEVEL = 'silent';
      delete process.env.DATABASE_URL;
      const mailDomain = loadConfig({}).mailDomain;
      expect(await runAdminCli(['sign-in-link', `owner@${mailDomain}`]), errors.mock.calls.join('')).toBe(0);
      // Piped: JSON (a table on a terminal).
      const printed = JSON.parse(output.mock.calls.join('')) as { url: string; expiresAt: string };
      expect(printed.url).toMatch(/^http:\/\/\S+\/sign-in\/[A-Za-z0-9_-]{43}$/);
      expect(await runAdminCli(['sign-in-link', 'nobody@example.test'])).toBe(1);
      expect(errors.mock.calls.join('')).toContain('NOT_FOUND');
    } finally {
      output.mockRestore();
      errors.mockRestore();
      for (const [name, value] of [
        ['HERALD_DATA_DIR', saved.dir],
        ['DATABASE_URL', saved.url],
        ['LOG_LEVEL', saved.log],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

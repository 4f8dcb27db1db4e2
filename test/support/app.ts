// The test harness: the real app, in process (app.inject), on the worker's real database, with a
// clock the test moves. No mocks of our own code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildDeps } from '../../src/build-deps.ts';
import type { Deps } from '../../src/deps.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { getTestDb } from './db.ts';
import type { DbHandle } from '../../src/db/connect.ts';
import { freePort } from './spawn.ts';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  clock: ManualClock;
  close(): Promise<void>;
}

/** Each test app's own data dir (the blob store's files), in the system's temp dir, never the checkout. */
const TEST_DATA_DIR_PREFIX = path.join(os.tmpdir(), 'herald-test-');

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    secret: 'test-secret-0123456789-0123456789-abcdef',
    adminToken: TEST_ADMIN_TOKEN,
    logLevel: 'silent',
    dataDir: overrides.dataDir ?? fs.mkdtempSync(TEST_DATA_DIR_PREFIX),
    ...overrides,
  };
}

/** Removes the temporary data dir testConfig made (never one a test passed in). */
export function discardTestDataDir(config: Config): void {
  if (config.dataDir.startsWith(TEST_DATA_DIR_PREFIX)) fs.rmSync(config.dataDir, { recursive: true, force: true });
}

export async function createTestApp(
  options: {
    config?: Partial<Config>;
    extraRoutes?: FastifyPluginAsync;
    clock?: ManualClock;
    database?: DbHandle;
  } = {},
): Promise<TestApp> {
  // A test that drops partitions brings a database of its own: the worker's is shared by its files.
  const database = options.database ?? (await getTestDb());
  const clock = options.clock ?? new ManualClock(new Date());
  const deps = await buildDeps(testConfig(options.config), { database, clock, logger: pino({ level: 'silent' }) });
  const app = await buildApp(deps, { extraRoutes: options.extraRoutes });
  await app.ready();
  return {
    app,
    deps,
    clock,
    async close() {
      await app.close();
      await deps.close();
      discardTestDataDir(deps.config);
    },
  };
}

/**
 * A test app listening on a free loopback port, its HERALD_PUBLIC_URL its own address: for tests
 * whose fake providers call it back over HTTP (delivery reports).
 */
export async function createListeningTestApp(config: Partial<Config>): Promise<TestApp> {
  const port = await freePort();
  const t = await createTestApp({ config: { ...config, publicUrl: `http://127.0.0.1:${port}` } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return t;
}

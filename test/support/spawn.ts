// Real `herald` child processes for the process-level tests: each gets its own data directory and
// port, and every child started here is killed by killAllHeralds() (call it in afterEach).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Variables of operator.md that a developer's shell could leak into a child. */
const OPERATOR_VARIABLES = /^(PORT|HOST|DATABASE_URL|REDIS_URL|LOG_LEVEL|HERALD_.*)$/;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface HeraldProcess {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited (immediately if it already has). */
  exited: Promise<Exit>;
  hasExited(): boolean;
  kill(signal: NodeJS.Signals): void;
}

const live = new Set<HeraldProcess>();
const tempDirs = new Set<string>();

export function makeDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-process-'));
  tempDirs.add(dir);
  return dir;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The environment a test instance runs in: nothing inherited from operator.md, SMTP (inbound and submission) off. */
export function heraldEnv(dataDir: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!OPERATOR_VARIABLES.test(name)) env[name] = value;
  }
  return {
    ...env,
    HERALD_DATA_DIR: dataDir,
    PORT: String(port),
    HERALD_SMTP_PORT: '0',
    HERALD_SUBMISSION_PORT: '0',
    ...extra,
  };
}

export function startHerald(args: string[], env: NodeJS.ProcessEnv): HeraldProcess {
  // process.execPath is the Node 24 that runs vitest; bin/herald.js as operators run it, with Node's
  // compile cache (each start strips and compiles every module again without it).
  const child = spawn(process.execPath, ['bin/herald.js', ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  let done = false;
  const exited = new Promise<Exit>((resolve) => {
    child.on('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const proc: HeraldProcess = {
    child,
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    exited,
    hasExited: () => done,
    kill: (signal) => {
      if (!done) child.kill(signal);
    },
  };
  live.add(proc);
  void exited.then(() => live.delete(proc));
  return proc;
}

export interface RunResult extends Exit {
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command to completion; a command still running after timeoutMs is killed and fails the test. */
export async function runHerald(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 45_000): Promise<RunResult> {
  const started = performance.now();
  const proc = startHerald(args, env);
  const exit = await waitForExit(proc, timeoutMs);
  return { ...exit, stdout: proc.stdout(), stderr: proc.stderr(), ms: performance.now() - started };
}

export async function waitForExit(proc: HeraldProcess, timeoutMs: number): Promise<Exit> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`herald (pid ${proc.pid}) did not exit within ${timeoutMs} ms\nstderr:\n${proc.stderr()}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([proc.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls GET /healthz until it answers 200; fails early if the process exits. */
export async function waitForHealthy(
  proc: HeraldProcess,
  port: number,
  timeoutMs = 60_000,
  host = '127.0.0.1',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.hasExited()) {
      const exit = await proc.exited;
      throw new Error(
        `herald exited (${exit.code ?? exit.signal}) before it was healthy\nstdout:\n${proc.stdout()}\nstderr:\n${proc.stderr()}`,
      );
    }
    try {
      const response = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/healthz`, {
        signal: AbortSignal.timeout(1_000),
      });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`herald was not healthy within ${timeoutMs} ms\nstderr:\n${proc.stderr()}`);
}

/** Starts `herald start` and waits until /healthz answers. */
export async function startHealthy(env: NodeJS.ProcessEnv, port: number): Promise<HeraldProcess> {
  const proc = startHerald(['start'], env);
  await waitForHealthy(proc, port);
  return proc;
}

/** SIGKILLs every child still running and removes the data directories; for afterEach. */
export async function cleanUpHeralds(): Promise<void> {
  const running = [...live];
  for (const proc of running) proc.kill('SIGKILL');
  await Promise.all(running.map((proc) => proc.exited));
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

export interface Banner {
  key: string;
  adminToken: string;
}

/** The first-start banner's full access key and admin token, or null when it was not printed. */
export function parseBanner(stdout: string): Banner | null {
  const key = /Full access API key:\s+(hk_[A-Za-z0-9_-]{43})\b/.exec(stdout);
  const token = /Admin token:\s+(\S+)/.exec(stdout);
  return key && token ? { key: key[1]!, adminToken: token[1]! } : null;
}

/**
 * The first start's banner, once printed: `herald start` listens before it creates the first team
 * (a start that cannot listen creates nothing), so /healthz can answer a moment before the banner.
 */
export async function waitForBanner(proc: HeraldProcess, timeoutMs = 30_000): Promise<Banner> {
  try {
    return await until('the banner', timeoutMs, async () => {
      const banner = parseBanner(proc.stdout());
      if (banner === null && proc.hasExited()) throw new Error('the process exited');
      return banner ?? undefined;
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; no banner in stdout:\n${proc.stdout()}\nstderr:\n${proc.stderr()}`, {
      cause: error,
    });
  }
}

export interface HttpResult {
  status: number;
  body: unknown;
  text: string;
}

export async function http(
  port: number,
  method: string,
  urlPath: string,
  token?: string,
  body?: unknown,
): Promise<HttpResult> {
  const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (/metrics)
  }
  return { status: response.status, body: parsed, text };
}

/** Polls `probe` every 20 ms until it answers something; fails naming `what` after timeoutMs. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs `body`; a failure carries the stderr of the herald processes it started. */
export async function withHeraldLogs(body: (started: HeraldProcess[]) => Promise<void>): Promise<void> {
  const started: HeraldProcess[] = [];
  try {
    await body(started);
  } catch (error) {
    if (error instanceof Error) {
      error.message += started
        .map((proc, i) => `\n--- herald #${i + 1} (pid ${proc.pid}) stderr:\n${proc.stderr().slice(-4_000)}`)
        .join('');
    }
    throw error;
  }
}

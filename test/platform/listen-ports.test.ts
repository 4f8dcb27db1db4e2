// A listen failure becomes one line naming the variable to change; the ports one command binds are
// checked free, and distinct, before it opens anything.
import net from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { checkPortsFree, listenOrExplain, listenersOf } from '../../src/listen-ports.ts';
import { StartupProblem } from '../../src/startup-problem.ts';

const opened: net.Server[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A port something else already listens on. */
async function busyPort(): Promise<number> {
  const server = net.createServer();
  opened.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

async function problemOf(promise: Promise<unknown>): Promise<StartupProblem> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StartupProblem);
  return error as StartupProblem;
}

describe('listenOrExplain', () => {
  it('a busy port: one line naming the variable, the system code kept', async () => {
    const port = await busyPort();
    const app = Fastify({ logger: false });
    const problem = await problemOf(
      listenOrExplain('127.0.0.1', { variable: 'HERALD_METRICS_PORT', port }, () =>
        app.listen({ port, host: '127.0.0.1' }),
      ),
    );
    expect(problem.message).toBe(`HERALD_METRICS_PORT ${port} is in use; set HERALD_METRICS_PORT`);
    expect(problem.code).toBe('EADDRINUSE');
    expect(problem.exitCode).toBe(2);
    await app.close();
  });

  it('an address of another machine: names HOST', async () => {
    const app = Fastify({ logger: false });
    const problem = await problemOf(
      listenOrExplain('192.0.2.1', { variable: 'PORT', port: 3000 }, () =>
        app.listen({ port: 3000, host: '192.0.2.1' }),
      ),
    );
    expect(problem.message).toBe('HOST 192.0.2.1 is not an address of this machine; set HOST');
    await app.close();
  });

  it('any other failure is rethrown as it is', async () => {
    const failure = new Error('not about the port');
    await expect(
      listenOrExplain('127.0.0.1', { variable: 'PORT', port: 1 }, () => Promise.reject(failure)),
    ).rejects.toBe(failure);
  });
});

describe('the ports of a command', () => {
  const config = loadConfig({ PORT: '3000', HERALD_SMTP_PORT: '2525', HERALD_METRICS_PORT: '9464' });

  it('start and smtp bind the SMTP and submission ports, api and worker do not; every one binds the metrics port when set', () => {
    const variables = (command: 'start' | 'api' | 'worker' | 'smtp') =>
      listenersOf(command, config).map((l) => l.variable);
    expect(variables('start')).toEqual(['PORT', 'HERALD_SMTP_PORT', 'HERALD_SUBMISSION_PORT', 'HERALD_METRICS_PORT']);
    expect(variables('smtp')).toEqual(['PORT', 'HERALD_SMTP_PORT', 'HERALD_SUBMISSION_PORT', 'HERALD_METRICS_PORT']);
    expect(variables('api')).toEqual(['PORT', 'HERALD_METRICS_PORT']);
    expect(variables('worker')).toEqual(['PORT', 'HERALD_METRICS_PORT']);
    const off = loadConfig({ HERALD_SMTP_PORT: '0', HERALD_SUBMISSION_PORT: '0' });
    expect(listenersOf('start', off).map((l) => l.variable)).toEqual(['PORT']);
    // Implicit TLS only with a certificate.
    const tls = loadConfig({
      HERALD_TLS_CERT_FILE: 'test/support/tls/server.pem',
      HERALD_TLS_KEY_FILE: 'test/support/tls/server-key.pem',
    });
    expect(listenersOf('smtp', tls).map((l) => [l.variable, l.port])).toEqual([
      ['PORT', 3000],
      ['HERALD_SMTP_PORT', 2525],
      ['HERALD_SUBMISSION_PORT', 2587],
      ['HERALD_SUBMISSIONS_PORT', 2465],
    ]);
  });

  it('two variables naming one port are refused before anything is bound', async () => {
    const same = loadConfig({ PORT: '3000', HERALD_METRICS_PORT: '3000' });
    expect((await problemOf(checkPortsFree('api', same))).message).toBe(
      'HERALD_METRICS_PORT 3000 is also PORT; set HERALD_METRICS_PORT to another port',
    );
    const smtp = loadConfig({ PORT: '3000', HERALD_SMTP_PORT: '3000' });
    expect((await problemOf(checkPortsFree('start', smtp))).message).toContain('HERALD_SMTP_PORT 3000 is also PORT');
  });

  it('the first busy one is named; free ones are let go of again', async () => {
    const busy = await busyPort();
    const free = await busyPort();
    await new Promise((resolve) => opened.pop()!.close(resolve));
    const config = loadConfig({ PORT: String(free), HERALD_SMTP_PORT: String(busy) });
    expect((await problemOf(checkPortsFree('start', config))).message).toBe(
      `HERALD_SMTP_PORT ${busy} is in use; set HERALD_SMTP_PORT`,
    );
    await checkPortsFree('api', config); // PORT alone: free, and released by the failed check above
  });
});

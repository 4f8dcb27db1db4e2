// The provider HTTP layer every SMS adapter posts through: how many connections it opens to one
// provider, and how a caller's signal ends requests that wait for one or are under way.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProviderHttp, formBody, MAX_CONNECTIONS } from '../../src/adapters/sms-provider/http.ts';

/**
 * A provider stand-in that counts connections and requests open at once. It holds the answers until
 * `holdUntilOpen` requests have been open at once, then answers at once (a held answer goes anyway
 * after `answerAfterMs`: a loaded machine may be slow to open them); with `answerAfterMs` null it
 * answers only when told (`answerHeld`).
 */
async function startCountingServer(answerAfterMs: number | null, holdUntilOpen = 1) {
  const counts = { connections: 0, requests: 0, open: 0, mostOpen: 0, answered: 0 };
  const held = new Set<() => void>();
  let reached = false;
  const server = http.createServer((req, res) => {
    counts.requests++;
    counts.open++;
    counts.mostOpen = Math.max(counts.mostOpen, counts.open);
    req.resume();
    const timer = answerAfterMs === null ? undefined : setTimeout(() => answer(), answerAfterMs);
    const answer = () => {
      if (!held.delete(answer)) return;
      clearTimeout(timer);
      counts.answered++;
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"sid":"SM1"}');
    };
    res.on('close', () => {
      counts.open--;
      held.delete(answer);
    });
    held.add(answer);
    if (answerAfterMs === null) return;
    if (counts.open >= holdUntilOpen) reached = true;
    if (reached) for (const release of [...held]) release();
  });
  server.on('connection', () => counts.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  /** Resolves once `n` requests have reached the provider (a loaded machine may take a while to connect). */
  const requested = async (n: number) => {
    while (counts.requests < n) await once(server, 'request');
  };
  const answerHeld = () => [...held].forEach((answer) => answer());
  return { counts, url, close, requested, answerHeld };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('provider http', () => {
  it(`opens at most ${MAX_CONNECTIONS} connections to a provider; the other requests wait their turn`, async () => {
    const server = await startCountingServer(2_000, MAX_CONNECTIONS);
    const providerHttp = createProviderHttp(5_000);
    closers.push(server.close, () => providerHttp.close());
    const requests = MAX_CONNECTIONS + 50;
    const answers = await Promise.all(
      Array.from({ length: requests }, () => providerHttp.post(server.url, {}, 'To=%2B14155552671')),
    );
    expect(answers.every((answer) => 'status' in answer && answer.status === 201)).toBe(true);
    expect(server.counts.answered).toBe(requests);
    expect(server.counts.mostOpen).toBe(MAX_CONNECTIONS);
    expect(server.counts.connections).toBe(MAX_CONNECTIONS);
  });

  it('ends a request under way and one waiting for a connection when the signal aborts, with its reason', async () => {
    const server = await startCountingServer(null);
    const providerHttp = createProviderHttp(10_000, 1);
    closers.push(server.close, () => providerHttp.close());
    const deadline = new AbortController();
    const started = performance.now();
    const underWay = providerHttp.post(server.url, {}, 'first', deadline.signal);
    const waiting = providerHttp.post(server.url, {}, 'second', deadline.signal);
    await server.requested(1);
    deadline.abort(new Error('no answer within the batch deadline'));
    // The first had gone out (the provider may have acted on it); the second never left.
    expect(await underWay).toEqual({ error: 'no answer within the batch deadline', unconfirmed: true });
    expect(await waiting).toEqual({ error: 'no answer within the batch deadline' });
    expect(performance.now() - started).toBeLessThan(5_000);
    // Only the first reached the provider: the second was still waiting for the connection.
    expect(server.counts.requests).toBe(1);
  });

  it("ends only the aborted signal's requests; the others stay under way", async () => {
    const server = await startCountingServer(null);
    const providerHttp = createProviderHttp(10_000, 3);
    closers.push(server.close, () => providerHttp.close());
    const first = new AbortController();
    const second = new AbortController();
    // Under way in this order: the aborted signal's requests are the first and the last.
    const a1 = providerHttp.post(server.url, {}, 'a1', first.signal);
    const b1 = providerHttp.post(server.url, {}, 'b1', second.signal);
    const a2 = providerHttp.post(server.url, {}, 'a2', first.signal);
    await server.requested(3);
    first.abort(new Error('first batch given up'));
    expect(await a1).toEqual({ error: 'first batch given up', unconfirmed: true });
    expect(await a2).toEqual({ error: 'first batch given up', unconfirmed: true });
    // Still under way: the answer the provider sends only now reaches it.
    server.answerHeld();
    expect(await b1).toEqual({ status: 201, text: '{"sid":"SM1"}' });
  });

  it('ends a waiting request at once when its signal aborts, keeping the busy connection', async () => {
    const server = await startCountingServer(null);
    const providerHttp = createProviderHttp(10_000, 1);
    closers.push(server.close, () => providerHttp.close());
    const given = new AbortController();
    const busy = providerHttp.post(server.url, {}, 'busy');
    await server.requested(1);
    const waiting = providerHttp.post(server.url, {}, 'waiting', given.signal);
    given.abort(new Error('given up'));
    expect(await waiting).toEqual({ error: 'given up' });
    server.answerHeld();
    expect(await busy).toEqual({ status: 201, text: '{"sid":"SM1"}' });
    // The next request goes out on the same connection: the dropped one neither used nor closed it.
    const next = providerHttp.post(server.url, {}, 'next');
    await server.requested(2);
    server.answerHeld();
    expect(await next).toEqual({ status: 201, text: '{"sid":"SM1"}' });
    expect(server.counts).toMatchObject({ requests: 2, connections: 1 });
  });

  it('ends each request when the timeout has passed since it began, not the later ones with it', async () => {
    const server = await startCountingServer(null);
    // The deadlines' timers are moved by hand; the sockets stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    closers.push(async () => void vi.useRealTimers());
    const providerHttp = createProviderHttp(600, 3);
    closers.push(server.close, () => providerHttp.close());
    const settled = new Set<string>();
    const early = providerHttp.post(server.url, {}, 'early').finally(() => settled.add('early'));
    await server.requested(1);
    vi.advanceTimersByTime(300);
    const later = providerHttp.post(server.url, {}, 'later').finally(() => settled.add('later'));
    await server.requested(2);
    vi.advanceTimersByTime(300);
    expect(await early).toEqual({ error: 'no answer within 0.6 s', unconfirmed: true });
    // The later one runs its own 0.6 s: 0.3 s of it are left.
    expect(settled.has('later')).toBe(false);
    vi.advanceTimersByTime(299);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled.has('later')).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await later).toEqual({ error: 'no answer within 0.6 s', unconfirmed: true });
  });

  it('sends the requests that wait for a connection in the order they came', async () => {
    const bodies: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(201).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const providerHttp = createProviderHttp(5_000, 1);
    closers.push(
      () => new Promise<void>((resolve) => server.close(() => resolve())),
      () => providerHttp.close(),
    );
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
    const sent = ['1', '2', '3', '4', '5'];
    await Promise.all(sent.map((body) => providerHttp.post(url, {}, body)));
    expect(bodies).toEqual(sent);
  });

  it('answers at once for a signal already aborted, sending nothing', async () => {
    const server = await startCountingServer(0);
    const providerHttp = createProviderHttp(5_000);
    closers.push(server.close, () => providerHttp.close());
    const answer = await providerHttp.post(server.url, {}, 'x', AbortSignal.abort(new Error('given up')));
    expect(answer).toEqual({ error: 'given up' });
    expect(server.counts.requests).toBe(0);
  });

  /** A provider stand-in that answers every request with `respond`. */
  async function startServer(respond: (res: http.ServerResponse) => void) {
    const server = http.createServer((req, res) => {
      req.resume();
      respond(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
  }

  it('gives up on a provider that never answers after the timeout', async () => {
    // A real socket's real timeout is the subject: 0.3 s, short, yet far above a timer's jitter.
    const url = await startServer(() => {});
    const providerHttp = createProviderHttp(300);
    closers.push(() => providerHttp.close());
    const started = performance.now();
    expect(await providerHttp.post(url, {}, 'x')).toEqual({ error: 'no answer within 0.3 s', unconfirmed: true });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  // Each piece comes well within the timeout, so only the bound on the whole answer ends it: real
  // time is the subject, 0.3 s the shortest that leaves the 20 ms pieces well within it.
  it('gives up on an answer still trickling in when the timeout has passed since the request began', async () => {
    const timers = new Set<NodeJS.Timeout>();
    closers.push(async () => timers.forEach((timer) => clearInterval(timer)));
    const url = await startServer((res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 20);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    });
    const providerHttp = createProviderHttp(300);
    closers.push(() => providerHttp.close());
    const started = performance.now();
    expect(await providerHttp.post(url, {}, 'x')).toEqual({ error: 'no answer within 0.3 s', unconfirmed: true });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('says a request that found no server never left (not unconfirmed)', async () => {
    // Port 1 on loopback: nothing listens there.
    const closed = 'http://127.0.0.1:1/send';
    const providerHttp = createProviderHttp(300);
    closers.push(() => providerHttp.close());
    const answer = await providerHttp.post(closed, {}, 'x');
    expect(answer).toMatchObject({ error: expect.stringContaining('ECONNREFUSED') });
    expect(answer).not.toHaveProperty('unconfirmed');
  });

  it('reads at most 64 KiB of an answer', async () => {
    const url = await startServer((res) =>
      res.writeHead(400, { 'content-type': 'text/plain' }).end('e'.repeat(200_000)),
    );
    const providerHttp = createProviderHttp(5_000);
    closers.push(() => providerHttp.close());
    const answer = await providerHttp.post(url, {}, 'x');
    expect(answer).toMatchObject({ status: 400 });
    const text = 'text' in answer ? answer.text : '';
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThanOrEqual(64 * 1024);
    expect(/^e+$/.test(text)).toBe(true);
  });

  it('writes a form body that a form parser reads back as given', () => {
    const fields = {
      To: '+14155552671',
      Body: "Code 12 & 34 = ok? 50% + tax, 'quoted' (sic)!* ж € 😀 / é",
      StatusCallback: 'https://herald.example/hooks/sms/twilio?a=1&b=2',
    };
    const body = formBody(fields);
    expect(Object.fromEntries(new URLSearchParams(body))).toEqual(fields);
    expect(body.split('&')).toHaveLength(3);
    // As URLSearchParams would send it: a lone surrogate (valid in a JS string) becomes U+FFFD.
    expect(new URLSearchParams(formBody({ Body: 'a\ud800b' })).get('Body')).toBe('a\ufffdb');
  });
});

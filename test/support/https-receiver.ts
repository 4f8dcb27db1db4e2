// A loopback HTTPS server standing in for a customer's webhook endpoint, with a certificate from the
// test CA in ./tls (HERALD_WEBHOOK_CA_FILE = receiver.caFile). Tests tell it how to answer: a status
// (with body and headers, e.g. 429 + Retry-After), 'hang' (never answers) or 'close' (drops the
// socket), per next request from a queue or as the default. It stays cheap on the 200 path so the
// delivery benchmark measures Herald, not the receiver. `tls: false` makes it a plain HTTP server (the
// http:// URLs HERALD_WEBHOOK_ALLOW_CIDRS allows).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TLS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tls');

export type ReceiverBehaviour =
  | { status: number; body?: string; headers?: Record<string, string> }
  /** Reads the request and never answers (until close()). */
  | 'hang'
  /** Reads the request, then destroys the socket without a response. */
  | 'close';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  receivedAt: Date;
}

export interface ReceiverOptions {
  /** Keep every request in `requests` (default true). Benchmarks turn it off and read `count`. */
  record?: boolean;
  /** Loopback address to bind (default 127.0.0.1); tests that need two hosts use 127.0.0.2. */
  host?: string;
  /** false: plain HTTP, no certificate (default true). */
  tls?: boolean;
}

export class HttpsReceiver {
  readonly #server: http.Server;
  readonly #record: boolean;
  readonly #sockets = new Set<Socket>();
  readonly #queue: ReceiverBehaviour[] = [];
  readonly #waiters = new Set<() => void>();
  #default: ReceiverBehaviour = { status: 200 };
  /** Requests received, oldest first (when recording). */
  readonly requests: ReceivedRequest[] = [];
  /** Requests received, recorded or not. */
  count = 0;
  /** TLS connections accepted: keep-alive reuse shows as fewer connections than requests. */
  connections = 0;
  /** Path of the CA certificate that signed the server's certificate. */
  readonly caFile = path.join(TLS_DIR, 'ca.pem');

  private constructor(server: http.Server, record: boolean, secure: boolean) {
    this.#server = server;
    this.#record = record;
    server.on(secure ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.connections++;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    // A client that gives up mid-handshake (e.g. an unknown CA) is expected, not a test failure.
    server.on('tlsClientError', () => {});
    server.on('request', (request: IncomingMessage, response: ServerResponse) => this.#handle(request, response));
  }

  static async start(options: ReceiverOptions = {}): Promise<HttpsReceiver> {
    const secure = options.tls ?? true;
    const server = secure
      ? https.createServer({
          cert: readFileSync(path.join(TLS_DIR, 'server.pem')),
          key: readFileSync(path.join(TLS_DIR, 'server-key.pem')),
          keepAliveTimeout: 30_000,
        })
      : http.createServer({ keepAliveTimeout: 30_000 });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, options.host ?? '127.0.0.1', () => resolve());
    });
    return new HttpsReceiver(server, options.record ?? true, secure);
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** The answer to every request once the queue is empty. */
  respondWith(behaviour: ReceiverBehaviour): void {
    this.#default = behaviour;
  }

  /** Answers for the next requests, in order, before falling back to the default. */
  enqueue(...behaviours: ReceiverBehaviour[]): void {
    this.#queue.push(...behaviours);
  }

  /** Resolves once `n` requests in total have arrived; rejects after `timeoutMs`. */
  waitForRequests(n: number, timeoutMs = 5_000): Promise<void> {
    if (this.count >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.count < n) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`HttpsReceiver: ${this.count} of ${n} requests after ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  /** Forgets recorded requests, queued answers and counters; the default answer is kept. */
  reset(): void {
    this.requests.length = 0;
    this.#queue.length = 0;
    this.count = 0;
    this.connections = 0;
  }

  /** Drops every open connection (hanging requests included) and stops listening. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    this.#server.closeAllConnections();
    await closed;
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const behaviour = this.#queue.shift() ?? this.#default;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.count++;
      if (this.#record) {
        this.requests.push({
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          receivedAt: new Date(),
        });
      }
      // Answer before waking waiters so a test that awaited the request sees a settled exchange sooner.
      this.#answer(behaviour, request, response);
      for (const waiter of this.#waiters) waiter();
    });
  }

  #answer(behaviour: ReceiverBehaviour, request: IncomingMessage, response: ServerResponse): void {
    if (behaviour === 'hang') return;
    if (behaviour === 'close') {
      request.socket.destroy();
      return;
    }
    const body = behaviour.body ?? '';
    response.writeHead(behaviour.status, { 'content-length': Buffer.byteLength(body), ...behaviour.headers });
    response.end(body);
  }
}

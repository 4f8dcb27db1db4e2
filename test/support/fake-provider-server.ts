// The machinery the fake SMS providers share (fake-twilio.ts, fake-africastalking.ts, fake-termii.ts):
// a loopback HTTP server that reads each request whole, records it, and answers it as the next
// scripted behaviour says: the fake's `accept`, a refusal, an HTTP error, or `hang` (never answers
// until close()); a fake may also answer later (a promise). Also the plain POST the fakes use to deliver reports to Herald.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request } from 'undici';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Answer {
  status: number;
  body: string;
  contentType?: string;
}

export abstract class FakeProviderServer<B> {
  readonly #server: http.Server;
  readonly #sockets = new Set<Socket>();
  readonly #queue: B[] = [];
  readonly #waiters = new Set<() => void>();
  #default: B;
  /** Every request received, oldest first. */
  readonly requests: RecordedRequest[] = [];

  protected constructor(server: http.Server, fallback: B) {
    this.#server = server;
    this.#default = fallback;
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.#handle(req, res));
  }

  /** The fake's answer to one request under `behaviour`; null means hang, a promise answers later. */
  protected abstract answer(request: RecordedRequest, behaviour: B): Answer | null | Promise<Answer | null>;

  protected static async listen(): Promise<http.Server> {
    const server = http.createServer({ keepAliveTimeout: 30_000 });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return server;
  }

  /** `http://127.0.0.1:<port>`: the value of HERALD_<PROVIDER>_API_URL. */
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** The answer to every request once the queue is empty. */
  respondWith(behaviour: B): void {
    this.#default = behaviour;
  }

  /** Answers for the next requests, in order, before falling back to the default. */
  enqueue(...behaviours: B[]): void {
    this.#queue.push(...behaviours);
  }

  /** Resolves once `n` requests in total have arrived; rejects after `timeoutMs`. */
  waitForRequests(n: number, timeoutMs = 5_000): Promise<void> {
    if (this.requests.length >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.requests.length < n) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`fake provider: ${this.requests.length} of ${n} requests after ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  /** Drops every connection (hanging requests included) and stops listening. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    this.#server.closeAllConnections();
    await closed;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const behaviour = this.#queue.shift() ?? this.#default;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      this.requests.push(recorded);
      const write = (answer: Answer | null) => {
        if (answer === null || res.destroyed) return;
        res.writeHead(answer.status, {
          'content-type': answer.contentType ?? 'application/json',
          'content-length': Buffer.byteLength(answer.body),
        });
        res.end(answer.body);
      };
      const answer = this.answer(recorded, behaviour);
      if (answer instanceof Promise) void answer.then(write);
      else write(answer);
      for (const waiter of this.#waiters) waiter();
    });
  }
}

/** POSTs a report the way the provider does; answers Herald's status code and body. */
export async function postReport(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  const response = await request(url, { method: 'POST', headers, body });
  return { status: response.statusCode, body: await response.body.text() };
}

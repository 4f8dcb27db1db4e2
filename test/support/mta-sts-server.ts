// A loopback HTTPS server standing in for the `mta-sts.<domain>` policy hosts of many domains at once,
// with the test certificate in ./tls. A TLS wildcard covers one label only, so of the certificate's
// names just two recipient domains have a valid policy host: `example.com` (mta-sts.example.com under
// *.example.com) and `hooks.test`. It answers by Host header: what a test set for that domain, else 404.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TLS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tls');

export type PolicyAnswer =
  | { status: number; body?: string; headers?: Record<string, string> }
  /** Reads the request and never answers (until close()). */
  | 'hang';

export class MtaStsServer {
  readonly #server: https.Server;
  readonly #sockets = new Set<Socket>();
  readonly #answers = new Map<string, PolicyAnswer>();
  /** Requests received, as `host path`, oldest first. */
  readonly requests: string[] = [];
  /** The test CA (PEM) that signed the server's certificate. */
  readonly ca = readFileSync(path.join(TLS_DIR, 'ca.pem'));

  private constructor(server: https.Server) {
    this.#server = server;
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    // A client that rejects the certificate hangs up mid-handshake: expected in tests.
    server.on('tlsClientError', () => {});
    server.on('request', (request, response) => {
      const host = (request.headers.host ?? '').toLowerCase();
      this.requests.push(`${host} ${request.url ?? ''}`);
      const answer = this.#answers.get(host) ?? { status: 404, body: 'not found' };
      if (answer === 'hang') return;
      const body = answer.body ?? '';
      response.writeHead(answer.status, { 'content-length': Buffer.byteLength(body), ...answer.headers });
      response.end(body);
    });
  }

  static async start(): Promise<MtaStsServer> {
    const server = https.createServer({
      cert: readFileSync(path.join(TLS_DIR, 'server.pem')),
      key: readFileSync(path.join(TLS_DIR, 'server-key.pem')),
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new MtaStsServer(server);
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** What `https://mta-sts.<domain>/...` answers from now on. */
  answer(domain: string, answer: PolicyAnswer): void {
    this.#answers.set(`mta-sts.${domain.toLowerCase()}`, answer);
  }

  /** Serves a policy file (RFC 8461 3.2) for `domain` as text/plain. */
  servePolicy(domain: string, policy: { mode: string; mx: string[]; maxAge: number }): void {
    const lines = ['version: STSv1', `mode: ${policy.mode}`, ...policy.mx.map((mx) => `mx: ${mx}`)];
    this.answer(domain, {
      status: 200,
      body: [...lines, `max_age: ${policy.maxAge}`, ''].join('\r\n'),
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }

  /** Requests for `domain`'s policy host so far. */
  requestsFor(domain: string): string[] {
    return this.requests.filter((line) => line.startsWith(`mta-sts.${domain.toLowerCase()} `));
  }

  /** Forgets every answer and recorded request. */
  reset(): void {
    this.#answers.clear();
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }
}

// bench/submission.ts's client, in its own process (the benchmark starts itself again with `client`):
// a raw-socket SMTP client over CONNECTIONS connections, each STARTTLS, AUTH PLAIN, then PIPELINING
// (RFC 2920: MAIL+RCPT+DATA in one write, the body and the next envelope in the next); and the
// messages it sends.
import net from 'node:net';
import tls from 'node:tls';

export const CONNECTIONS = 4;

export interface Message {
  mailFrom: string;
  rcpt: string;
  /** CRLF line ends, dot-stuffed, ending in CRLF. */
  data: string;
}

export interface ToClient {
  port: number;
  ca: string;
  key: string;
  messages: Message[];
}

export interface ClientFigures {
  seconds: number;
  accepted: number;
  refused: number;
  firstRefusal: string | null;
}

/** A transactional email as an application sends it: text and HTML alternatives, about 1.5 KB. */
export function messageOf(from: string, to: string, round: number, i: number): Message {
  const text = [
    `From: "Bench Shop" <${from}>`,
    `To: ${to}`,
    `Subject: Order ${round}-${i} confirmed`,
    `Message-ID: <bench-${round}-${i}@client.bench.example.test>`,
    'Date: Mon, 30 Nov 2026 10:00:00 +0000',
    'X-Order-Id: 4711',
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Hello, your order ${round}-${i} is confirmed.`,
    'We will email you again when it ships. '.repeat(8),
    '',
    '--b1',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<html><body><h1>Order ${round}-${i} confirmed</h1>`,
    `<p>${'We will email you again when it ships. '.repeat(12)}</p>`,
    '<p><a href="https://shop.example.test/orders">Your orders</a></p></body></html>',
    '',
    '--b1--',
    '',
  ].join('\r\n');
  return { mailFrom: from, rcpt: to, data: text.replace(/^\./gm, '..') };
}

/** SMTP replies read from a socket, multi-line replies joined. */
class Replies {
  #buffer = '';
  #lines: string[] = [];
  readonly #ready: string[] = [];
  readonly #waiting: ((reply: string) => void)[] = [];
  readonly #listener = (chunk: Buffer) => {
    this.#buffer += chunk.toString('latin1');
    let end: number;
    while ((end = this.#buffer.indexOf('\r\n')) >= 0) {
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      this.#lines.push(line);
      if (line[3] === '-') continue;
      const reply = this.#lines.join('\n');
      this.#lines = [];
      const waiter = this.#waiting.shift();
      if (waiter) waiter(reply);
      else this.#ready.push(reply);
    }
  };

  readonly #socket: net.Socket;

  constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on('data', this.#listener);
  }

  detach(): void {
    this.#socket.off('data', this.#listener);
  }

  next(): Promise<string> {
    const ready = this.#ready.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

const code = (reply: string) => Number(reply.slice(0, 3));

async function expectReply(replies: Replies, wanted: number, what: string): Promise<void> {
  const reply = await replies.next();
  if (code(reply) !== wanted) throw new Error(`${what}: ${reply}`);
}

/** One connection: STARTTLS, AUTH, then every message pipelined. */
async function sendOverConnection(job: ToClient, batch: Message[]): Promise<Omit<ClientFigures, 'seconds'>> {
  const raw = net.connect({ port: job.port, host: '127.0.0.1' });
  raw.setNoDelay(true);
  await new Promise<void>((resolve, reject) => raw.once('connect', resolve).once('error', reject));
  const plain = new Replies(raw);
  await expectReply(plain, 220, 'greeting');
  raw.write('EHLO client.bench.example.test\r\n');
  await expectReply(plain, 250, 'EHLO');
  raw.write('STARTTLS\r\n');
  await expectReply(plain, 220, 'STARTTLS');
  plain.detach();
  const socket = tls.connect({ socket: raw, ca: job.ca, servername: 'localhost' });
  await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
  const replies = new Replies(socket);
  const failed = new Promise<never>((_, reject) => socket.once('error', reject));
  const next = () => Promise.race([replies.next(), failed]);
  let accepted = 0;
  let refused = 0;
  let firstRefusal: string | null = null;
  try {
    socket.write('EHLO client.bench.example.test\r\n');
    const ehlo = await next();
    if (code(ehlo) !== 250 || !/PIPELINING/.test(ehlo)) throw new Error(`EHLO after STARTTLS: ${ehlo}`);
    socket.write(`AUTH PLAIN ${Buffer.from(`\0herald\0${job.key}`).toString('base64')}\r\n`);
    const auth = await next();
    if (code(auth) !== 235) throw new Error(`AUTH: ${auth}`);
    const envelope = (m: Message) => `MAIL FROM:<${m.mailFrom}>\r\nRCPT TO:<${m.rcpt}>\r\nDATA\r\n`;
    socket.write(envelope(batch[0]!));
    for (let i = 0; i < batch.length; i++) {
      const [mail, rcpt, data] = [await next(), await next(), await next()];
      if (code(mail) !== 250 || code(rcpt) !== 250 || code(data) !== 354)
        throw new Error(`envelope refused: ${mail} | ${rcpt} | ${data}`);
      const tail = i + 1 < batch.length ? envelope(batch[i + 1]!) : 'QUIT\r\n';
      socket.write(`${batch[i]!.data}.\r\n${tail}`, 'latin1');
      const reply = await next();
      if (code(reply) === 250) accepted++;
      else {
        refused++;
        firstRefusal ??= reply;
      }
    }
    await next(); // 221 to QUIT
    return { accepted, refused, firstRefusal };
  } finally {
    socket.destroy();
  }
}

export function clientMain(): void {
  process.on('message', (job: ToClient) => {
    void (async () => {
      const share = Math.ceil(job.messages.length / CONNECTIONS);
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: CONNECTIONS }, (_, c) =>
          sendOverConnection(job, job.messages.slice(c * share, (c + 1) * share)),
        ),
      );
      process.send!({
        seconds: (performance.now() - started) / 1000,
        accepted: results.reduce((sum, r) => sum + r.accepted, 0),
        refused: results.reduce((sum, r) => sum + r.refused, 0),
        firstRefusal: results.find((r) => r.firstRefusal !== null)?.firstRefusal ?? null,
      } satisfies ClientFigures);
    })();
  });
  process.send!({ ready: true });
}

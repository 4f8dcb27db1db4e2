// What the SMTP benchmarks (smtp-feedback.ts, inbound.ts) share: a raw-socket client using
// PIPELINING (RFC 2920) that runs in a child process, a bare smtp-server with the listener's protocol
// options as the baseline, and a free port for Herald's listener.
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** Parallel client connections, as a few MTAs sending at once would open. */
export const CONNECTIONS = 4;
/** The listener's default messages per connection (defaultSmtpLimits): the client reconnects after as many. */
export const MESSAGES_PER_CONNECTION = 100;
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface SmtpMessage {
  /** The envelope MAIL FROM ('' for the null sender of a bounce). */
  mailFrom: string;
  /** The envelope RCPT TO. */
  rcpt: string;
  /** The message, CRLF line endings, already dot-stuffed, ending in CRLF. */
  data: string;
}

type ToClient = { port: number; messages: SmtpMessage[] };

export interface ClientFigures {
  /** When the client began connecting, ms since the epoch (performance.timeOrigin + now: one clock for both processes). */
  startedAt: number;
  /** From the first connect to the last reply. */
  seconds: number;
  accepted: number;
  refused: number;
}

/** `text` with CRLF line endings and dot-stuffing (RFC 5321 4.5.2), ready to follow DATA. */
export function smtpData(text: string): string {
  return text.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
}

// ---- the client, in its own process ----

/** SMTP replies from a socket, one per next() call, multi-line replies joined. */
class ReplyReader {
  #buffer = '';
  #lines: string[] = [];
  readonly #ready: string[] = [];
  readonly #waiting: ((reply: string) => void)[] = [];

  constructor(socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let end: number;
      while ((end = this.#buffer.indexOf('\r\n')) >= 0) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        this.#lines.push(line);
        if (line[3] === '-') continue; // "250-PIPELINING": more lines of the same reply follow
        const reply = this.#lines.join('\n');
        this.#lines = [];
        const waiter = this.#waiting.shift();
        if (waiter) waiter(reply);
        else this.#ready.push(reply);
      }
    });
  }

  next(): Promise<string> {
    const ready = this.#ready.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

const code = (reply: string) => Number(reply.slice(0, 3));

/** One connection: EHLO, then each message as MAIL+RCPT+DATA in one write, its body and the next envelope in the next. */
async function sendOverConnection(
  port: number,
  localAddress: string,
  batch: SmtpMessage[],
): Promise<{ accepted: number; refused: number }> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  socket.setNoDelay(true);
  const failed = new Promise<never>((_, reject) => socket.once('error', reject));
  const replies = new ReplyReader(socket);
  const next = () => Promise.race([replies.next(), failed]);
  let accepted = 0;
  let refused = 0;
  try {
    const greeting = await next();
    if (code(greeting) !== 220) throw new Error(`greeting: ${greeting}`);
    socket.write('EHLO client.bench.example.test\r\n');
    const ehlo = await next();
    if (code(ehlo) !== 250 || !/PIPELINING/i.test(ehlo)) throw new Error(`EHLO without PIPELINING: ${ehlo}`);
    const envelope = (m: SmtpMessage) => `MAIL FROM:<${m.mailFrom}>\r\nRCPT TO:<${m.rcpt}>\r\nDATA\r\n`;
    socket.write(envelope(batch[0]!));
    for (let i = 0; i < batch.length; i++) {
      const [mail, rcpt, data] = [await next(), await next(), await next()];
      // RFC 2920: the body may go only after 354; anything else here is a broken run, not a figure.
      if (code(mail) !== 250 || code(rcpt) !== 250 || code(data) !== 354)
        throw new Error(`envelope refused: ${mail} | ${rcpt} | ${data}`);
      const tail = i + 1 < batch.length ? envelope(batch[i + 1]!) : 'QUIT\r\n';
      socket.write(`${batch[i]!.data}.\r\n${tail}`, 'latin1');
      if (code(await next()) === 250) accepted++;
      else refused++;
    }
    await next(); // 221 to QUIT
    return { accepted, refused };
  } finally {
    socket.destroy();
  }
}

/**
 * The child's main: sends each batch it is given over CONNECTIONS connections and answers the
 * figures. Every connection comes from its own loopback address under `addressPrefix` (127.x): the
 * listener admits at most 60 connections per minute per client address (its production default),
 * and the rounds together open more than that.
 */
export function clientMain(addressPrefix: string): void {
  let nextAddress = 0;
  const localAddress = () => {
    const n = nextAddress++;
    return `${addressPrefix}.${Math.floor(n / 200)}.${1 + (n % 200)}`;
  };
  process.on('message', (message: ToClient) => {
    void (async () => {
      const chunks: SmtpMessage[][] = [];
      for (let i = 0; i < message.messages.length; i += MESSAGES_PER_CONNECTION)
        chunks.push(message.messages.slice(i, i + MESSAGES_PER_CONNECTION));
      const totals = { accepted: 0, refused: 0 };
      const started = performance.now();
      const startedAt = performance.timeOrigin + started;
      const lane = async () => {
        for (let chunk = chunks.shift(); chunk !== undefined; chunk = chunks.shift()) {
          const result = await sendOverConnection(message.port, localAddress(), chunk);
          totals.accepted += result.accepted;
          totals.refused += result.refused;
        }
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, lane));
      process.send!({ startedAt, seconds: (performance.now() - started) / 1000, ...totals } satisfies ClientFigures);
    })();
  });
  process.send!({ ready: true });
}

/** Has the client child send `messages` to `port`; resolves with its figures. */
export function runClient(child: ChildProcess, port: number, messages: SmtpMessage[]): Promise<ClientFigures> {
  return new Promise((resolve) => {
    child.once('message', (figures) => resolve(figures as ClientFigures));
    child.send({ port, messages } satisfies ToClient);
  });
}

// ---- the parent's side ----

/**
 * The baseline: smtp-server with the listener's protocol options (no AUTH or STARTTLS, same SIZE);
 * each message is read whole and handed to `onMessage`, or without one read and dropped, then
 * answered 250.
 */
export async function startBareServer(
  onMessage?: (raw: Buffer) => Promise<void>,
): Promise<{ port: number; stop(): Promise<void> }> {
  const server = new SMTPServer({
    name: 'mail.bench.example.test',
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    size: MAX_MESSAGE_BYTES,
    rejectOversized: true,
    disableReverseLookup: true,
    hideENHANCEDSTATUSCODES: false,
    logger: false,
    onData(stream, _session, callback) {
      if (onMessage === undefined) {
        stream.on('end', () => callback(null, 'Message accepted'));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        onMessage(Buffer.concat(chunks)).then(
          () => callback(null, 'Message accepted'),
          (error: Error) => callback(error),
        );
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}

/** A port nobody listens on now: startInboundSmtp takes its port from config, where 0 means off. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

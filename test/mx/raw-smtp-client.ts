// A line-level SMTP client for the listener's tests, so that they see every reply code exactly as the
// server wrote it; it can connect from any loopback address (127.0.0.0/8 stands in for many networks).
import net from 'node:net';
import { expect } from 'vitest';

export interface Reply {
  code: number;
  text: string;
}

/** One SMTP client connection: reads whole replies, writes command lines. */
export class RawClient {
  readonly socket: net.Socket;
  #buffer = '';
  #waiting: ((reply: Reply) => void) | null = null;
  #closed = false;
  readonly closed: Promise<void>;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer += chunk.toString('latin1');
      this.#deliver();
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.#closed = true;
        this.#deliver();
        resolve();
      }),
    );
  }

  /** `localAddress`: the client's source address, any of 127.0.0.0/8 on Linux. */
  static async connect(port: number, localAddress?: string): Promise<RawClient> {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new RawClient(socket);
  }

  /** The next complete reply (all its lines); code 0 when the server closed first, -1 after 3 s of silence. */
  read(): Promise<Reply> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting = null;
        resolve({ code: -1, text: 'no reply within 3 s' });
      }, 3_000);
      this.#waiting = (reply) => {
        clearTimeout(timer);
        resolve(reply);
      };
      this.#deliver();
    });
  }

  async command(line: string): Promise<Reply> {
    this.socket.write(`${line}\r\n`);
    return this.read();
  }

  /** EHLO, MAIL FROM and RCPT TO, each expected to be accepted. */
  async envelope(from: string, to: string[]): Promise<void> {
    expect((await this.read()).code).toBe(220);
    expect((await this.command('EHLO client.test')).code).toBe(250);
    expect((await this.command(`MAIL FROM:<${from}>`)).code).toBe(250);
    for (const rcpt of to) expect((await this.command(`RCPT TO:<${rcpt}>`)).text).toMatch(/^250 /);
  }

  close(): void {
    this.socket.destroy();
  }

  #deliver(): void {
    if (this.#waiting === null) return;
    const lines = this.#buffer.split('\r\n');
    const last = lines.findIndex((line) => /^\d{3}( |$)/.test(line));
    if (last !== -1 && last < lines.length - 1) {
      const text = lines.slice(0, last + 1).join('\n');
      this.#buffer = lines.slice(last + 1).join('\r\n');
      const resolve = this.#waiting;
      this.#waiting = null;
      resolve({ code: Number(text.slice(last === 0 ? 0 : text.lastIndexOf('\n') + 1).slice(0, 3)), text });
    } else if (this.#closed) {
      const resolve = this.#waiting;
      this.#waiting = null;
      resolve({ code: 0, text: 'closed' });
    }
  }
}

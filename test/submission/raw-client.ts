// A line-level SMTP client, plain text from any loopback address (127.0.0.0/8 stands in for other
// clients): the tests see every reply exactly as written, and whether one has come yet.
import net from 'node:net';

export interface Reply {
  code: number;
  text: string;
}

export class RawClient {
  readonly #socket: net.Socket;
  readonly #replies: Reply[] = [];
  #buffer = '';
  #waiting: (() => void) | null = null;
  #closed = false;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer += chunk.toString('latin1');
      let end: number;
      while ((end = this.#buffer.search(/^\d{3} [^\r\n]*\r\n/m)) !== -1) {
        const lineEnd = this.#buffer.indexOf('\r\n', end) + 2;
        const text = this.#buffer.slice(0, lineEnd - 2);
        this.#buffer = this.#buffer.slice(lineEnd);
        this.#replies.push({ code: Number(text.slice(end, end + 3)), text });
      }
      this.#wake();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.#closed = true;
      this.#wake();
    });
  }

  static async connect(port: number, localAddress = '127.0.0.1'): Promise<RawClient> {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new RawClient(socket);
  }

  /** Replies received and not yet read. */
  get pending(): number {
    return this.#replies.length;
  }

  /** The next reply; code 0 once the server closed the connection. */
  async read(): Promise<Reply> {
    while (this.#replies.length === 0 && !this.#closed) await new Promise<void>((resolve) => (this.#waiting = resolve));
    return this.#replies.shift() ?? { code: 0, text: 'closed' };
  }

  write(data: string): void {
    this.#socket.write(data);
  }

  async command(line: string): Promise<Reply> {
    this.write(`${line}\r\n`);
    return this.read();
  }

  /** Greeting, EHLO and AUTH PLAIN as `user` with `password`; the AUTH reply. */
  async login(password: string, user = 'herald'): Promise<Reply> {
    await this.read();
    await this.command('EHLO app.test');
    return this.command(`AUTH PLAIN ${Buffer.from(`\0${user}\0${password}`).toString('base64')}`);
  }

  close(): void {
    this.#socket.destroy();
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.();
  }
}

/** A small message as DATA carries it, ending with the final dot. */
export function messageData(headers: Record<string, string>, body = 'Hello.'): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}\r\n.\r\n`;
}

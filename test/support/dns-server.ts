// A loopback DNS server that speaks the real protocol (UDP and TCP, one port) and answers what a
// test tells it: TXT (several character-strings per record), MX, A and AAAA; NXDOMAIN for unknown
// names; SERVFAIL or silence (the client times out) per name; and, per name, a truncated UDP answer
// so the client has to ask again over TCP. The service reaches it through HERALD_DNS_SERVERS.
import dgram from 'node:dgram';
import net from 'node:net';
import * as dnsPacket from 'dns-packet';

/** `ttl` in seconds; 60 when not given. */
export type TestRecord = (
  | { type: 'TXT'; chunks: string[] }
  | { type: 'MX'; exchange: string; priority: number }
  | { type: 'A'; address: string }
  | { type: 'AAAA'; address: string }
) & { ttl?: number };

const DEFAULT_TTL = 60;

export type NameBehaviour = 'answer' | 'servfail' | 'silent' | 'truncate-udp';

const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;

const canonical = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** TXT value as a DNS provider publishes a long value: split into strings of at most 255 bytes. */
export function txtChunks(value: string, size = 255): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < value.length; i += size) chunks.push(value.slice(i, i + size));
  return chunks.length === 0 ? [''] : chunks;
}

export class TestDnsServer {
  readonly #records = new Map<string, TestRecord[]>();
  readonly #behaviour = new Map<string, NameBehaviour>();
  readonly #udp: dgram.Socket;
  readonly #tcp: net.Server;
  readonly #sockets = new Set<net.Socket>();
  /** Queries seen, as `TYPE name over udp|tcp`, for tests that check how they were asked. */
  readonly queries: string[] = [];

  private constructor(udp: dgram.Socket, tcp: net.Server) {
    this.#udp = udp;
    this.#tcp = tcp;
    udp.on('message', (message, remote) => {
      const response = this.#respond(message, 'udp');
      if (response) udp.send(response, remote.port, remote.address);
    });
    tcp.on('connection', (socket) => this.#serveTcp(socket));
  }

  /** Binds UDP on a free loopback port, then TCP on the same port (retrying if TCP's is taken). */
  static async start(): Promise<TestDnsServer> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const udp = dgram.createSocket('udp4');
      await new Promise<void>((resolve, reject) => {
        udp.once('error', reject);
        udp.bind(0, '127.0.0.1', () => resolve());
      });
      const port = udp.address().port;
      const tcp = net.createServer();
      const bound = await new Promise<boolean>((resolve) => {
        tcp.once('error', () => resolve(false));
        tcp.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (bound) return new TestDnsServer(udp, tcp);
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    }
    throw new Error('no free port for the test DNS server');
  }

  get port(): number {
    return this.#udp.address().port;
  }

  /** The HERALD_DNS_SERVERS entry for this server. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Replaces the records of one type at `name` (an empty list removes them). */
  set(name: string, type: TestRecord['type'], records: TestRecord[]): void {
    const key = canonical(name);
    const kept = (this.#records.get(key) ?? []).filter((record) => record.type !== type);
    this.#records.set(key, [...kept, ...records]);
  }

  setTxt(name: string, ...values: (string | string[])[]): void {
    this.set(
      name,
      'TXT',
      values.map((value) => ({ type: 'TXT', chunks: Array.isArray(value) ? value : txtChunks(value) })),
    );
  }

  setMx(name: string, ...records: { exchange: string; priority: number; ttl?: number }[]): void {
    this.set(
      name,
      'MX',
      records.map((record) => ({ type: 'MX', ...record })),
    );
  }

  /** Forgets every record at `name` (it then answers NXDOMAIN) and its behaviour. */
  remove(name: string): void {
    this.#records.delete(canonical(name));
    this.#behaviour.delete(canonical(name));
  }

  /** How queries for `name` are answered; 'answer' restores the normal behaviour. */
  behave(name: string, behaviour: NameBehaviour): void {
    this.#behaviour.set(canonical(name), behaviour);
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await Promise.all([
      new Promise<void>((resolve) => this.#udp.close(() => resolve())),
      new Promise<void>((resolve) => this.#tcp.close(() => resolve())),
    ]);
  }

  #serveTcp(socket: net.Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (data) => {
      buffered = Buffer.concat([buffered, data]);
      // Each message is prefixed with its 16-bit length (RFC 1035 4.2.2).
      while (buffered.length >= 2) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < 2 + length) break;
        const message = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        const response = this.#respond(message, 'tcp');
        if (response) {
          const prefix = Buffer.alloc(2);
          prefix.writeUInt16BE(response.length);
          socket.write(Buffer.concat([prefix, response]));
        }
      }
    });
  }

  #respond(message: Buffer, transport: 'udp' | 'tcp'): Buffer | null {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return null;
    }
    const question = query.questions?.[0];
    if (!question) return null;
    const name = canonical(question.name);
    this.queries.push(`${question.type} ${name} over ${transport}`);
    const behaviour = this.#behaviour.get(name) ?? 'answer';
    if (behaviour === 'silent') return null;
    const base = {
      type: 'response' as const,
      id: query.id,
      questions: [question],
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE,
    };
    if (behaviour === 'servfail') return dnsPacket.encode({ ...base, flags: base.flags | RCODE_SERVFAIL });
    if (behaviour === 'truncate-udp' && transport === 'udp') {
      return dnsPacket.encode({ ...base, flags: base.flags | dnsPacket.TRUNCATED_RESPONSE });
    }
    const records = this.#records.get(name);
    if (records === undefined || records.length === 0) {
      return dnsPacket.encode({ ...base, flags: base.flags | dnsPacket.AUTHORITATIVE_ANSWER | RCODE_NXDOMAIN });
    }
    const answers = records.filter((record) => record.type === question.type).map((record) => toAnswer(name, record));
    const response = dnsPacket.encode({ ...base, flags: base.flags | dnsPacket.AUTHORITATIVE_ANSWER, answers });
    // Over UDP an answer larger than the client accepts is truncated, and the client retries over TCP.
    const opt = query.additionals?.find((record) => record.type === 'OPT');
    const limit = opt && 'udpPayloadSize' in opt ? Math.max(512, opt.udpPayloadSize) : 512;
    if (transport === 'udp' && response.length > limit) {
      return dnsPacket.encode({ ...base, flags: base.flags | dnsPacket.TRUNCATED_RESPONSE });
    }
    return response;
  }
}

function toAnswer(name: string, record: TestRecord): dnsPacket.Answer {
  const ttl = record.ttl ?? DEFAULT_TTL;
  switch (record.type) {
    case 'TXT':
      return { type: 'TXT', name, ttl, data: record.chunks.map((chunk) => Buffer.from(chunk)) };
    case 'MX':
      return { type: 'MX', name, ttl, data: { exchange: record.exchange, preference: record.priority } };
    case 'A':
      return { type: 'A', name, ttl, data: record.address };
    case 'AAAA':
      return { type: 'AAAA', name, ttl, data: record.address };
  }
}

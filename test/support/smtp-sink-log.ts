// The SMTP sink's connection log (test/support/smtp-sink.ts): every client connection by the address it
// came in on, whether it said QUIT and how many messages it carried, and the peaks of open connections.
import type { SMTPServer, SMTPServerSession } from 'smtp-server';

/** One client connection, as the sink saw it. Times are Date.now() milliseconds. */
export interface SinkConnection {
  /** smtp-server's session id. */
  id: string;
  /** The sink's address the client connected to: which destination it was talking to. */
  localAddress: string;
  /** When smtp-server handed the session over (after its 100 ms wait for clients that talk too soon). */
  openedAt: number;
  closedAt: number | null;
  /** The client sent QUIT before closing. */
  quit: boolean;
  /** Transactions that got their 250 after DATA on this connection. */
  messages: number;
  /** TLS (STARTTLS) was in use when the connection closed (or the last message was accepted). */
  secure: boolean;
  /** Answered 421 at greeting because the address had maxConnections open already. */
  refused: boolean;
}

const noLog = () => {};

export class ConnectionLog {
  /** Every connection seen since the last reset (open ones included). */
  readonly connections: SinkConnection[] = [];
  /** The open connections' entries in `connections`, by session id. */
  readonly #live = new Map<string, SinkConnection>();
  readonly #openByAddress = new Map<string, number>();
  readonly #peakByAddress = new Map<string, number>();
  #peak = 0;

  /** Open connections on `address` that were not refused. */
  acceptedOn(address: string): number {
    return [...this.#live.values()].filter((c) => c.localAddress === address && !c.refused).length;
  }

  /** A connection smtp-server handed over (to be refused with 421 at greeting when `refused`). */
  opened(session: SMTPServerSession, refused: boolean): void {
    const address = session.localAddress;
    const connection: SinkConnection = {
      id: session.id,
      localAddress: address,
      openedAt: Date.now(),
      closedAt: null,
      quit: false,
      messages: 0,
      secure: session.secure,
      refused,
    };
    this.connections.push(connection);
    this.#live.set(session.id, connection);
    const open = (this.#openByAddress.get(address) ?? 0) + 1;
    this.#openByAddress.set(address, open);
    this.#peakByAddress.set(address, Math.max(this.#peakByAddress.get(address) ?? 0, open));
    this.#peak = Math.max(this.#peak, this.#live.size);
  }

  closed(session: SMTPServerSession): void {
    const connection = this.#live.get(session.id);
    // A client that left during smtp-server's early-talker wait never reached onConnect.
    if (!connection) return;
    this.#live.delete(session.id);
    connection.closedAt = Date.now();
    connection.secure = session.secure;
    const address = connection.localAddress;
    this.#openByAddress.set(address, (this.#openByAddress.get(address) ?? 1) - 1);
  }

  /** A message got its 250 on the connection of `sessionId`. */
  accepted(sessionId: string, secure: boolean): void {
    const connection = this.#live.get(sessionId);
    if (connection) {
      connection.messages += 1;
      connection.secure = secure;
    }
  }

  /** Forget the closed connections; the peaks start again from the connections open now. */
  reset(): void {
    this.connections.length = 0;
    this.connections.push(...this.#live.values());
    this.#peak = this.#live.size;
    this.#peakByAddress.clear();
    for (const [address, open] of this.#openByAddress) this.#peakByAddress.set(address, open);
  }

  /** The most connections open at once, over every address (refused ones included while open). */
  get peak(): number {
    return this.#peak;
  }

  /** The most connections open at once on each address that saw any. */
  peakByAddress(): Map<string, number> {
    return new Map(this.#peakByAddress);
  }

  /** Connections whose client sent QUIT. */
  get quitCount(): number {
    return this.connections.filter((connection) => connection.quit).length;
  }

  /** Accepted messages per connection, over the connections that carried at least one (0 if none did). */
  messagesPerConnection(): number {
    const used = this.connections.filter((connection) => connection.messages > 0);
    return used.length === 0 ? 0 : used.reduce((sum, connection) => sum + connection.messages, 0) / used.length;
  }

  /**
   * smtp-server has no QUIT hook; its command log is where every command the client sends is
   * reported, with the connection's id (= session.id). Set on the public `logger` after
   * construction: the `logger` option would also make smtp-server warn on stderr about its
   * bundled test certificate, which the sink uses on purpose.
   */
  listenForQuit(server: SMTPServer): void {
    server.logger = {
      trace: noLog,
      info: noLog,
      warn: noLog,
      error: noLog,
      fatal: noLog,
      debug: (entry?: unknown) => {
        const { tnx, command, cid } = (entry ?? {}) as { tnx?: string; command?: string; cid?: string };
        if (tnx === 'command' && command === 'QUIT' && cid !== undefined) {
          const connection = this.#live.get(String(cid));
          if (connection) connection.quit = true;
        }
      },
    };
  }
}

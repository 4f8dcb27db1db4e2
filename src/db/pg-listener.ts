// LISTEN on PostgreSQL that comes back. One dedicated connection carries every channel of the
// process (LISTEN is per session; a pooled client would lose it). When it is lost (a restart, a
// failover, pg_terminate_backend) or stops answering, it reconnects with backoff, LISTENs again and
// tells each subscriber it resumed: notifications sent meanwhile are lost, so a subscriber drops
// what they would have changed (the API key cache) or looks again (the queues).
import pg from 'pg';

export interface ListenerLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

interface Subscription {
  onNotify: (payload: string) => void;
  onResume?: () => void;
}

const BACKOFF_FIRST_MS = 100;
const BACKOFF_MAX_MS = 5_000;
/** A connection that cannot answer SELECT 1 in this long is treated as lost. */
const PING_INTERVAL_MS = 10_000;
const PING_TIMEOUT_MS = 5_000;

export class PgListener {
  readonly #config: pg.ClientConfig;
  readonly #logger: ListenerLogger | undefined;
  readonly #channels = new Map<string, Set<Subscription>>();
  #client: pg.Client | null = null;
  /** The channels LISTENed on the current connection. */
  #listenedOn = new Set<string>();
  #connecting: Promise<void> | null = null;
  #up = false;
  #closed = false;
  #downSince: number | null = null;
  #attempts = 0;
  #retry: NodeJS.Timeout | null = null;
  #ping: NodeJS.Timeout | null = null;

  constructor(config: pg.ClientConfig, logger?: ListenerLogger) {
    // Named, so an operator (and the process test) can tell it apart in pg_stat_activity.
    this.#config = { ...config, keepAlive: true, application_name: 'herald-listener' };
    this.#logger = logger;
  }

  /** False while the connection is down and notifications may be missed (/readyz). */
  get listening(): boolean {
    return this.#up || this.#channels.size === 0;
  }

  /** Subscribes; resolves once LISTEN runs on a live connection (the first one must succeed). */
  async listen(channel: string, subscription: Subscription): Promise<() => Promise<void>> {
    let subscribers = this.#channels.get(channel);
    if (!subscribers) this.#channels.set(channel, (subscribers = new Set()));
    subscribers.add(subscription);
    // While down, the reconnection LISTENs on every channel, this one included.
    if (this.#client === null && this.#downSince === null) await this.#connect();
    else if (this.#connecting) await this.#connecting;
    const client = this.#client;
    if (this.#up && client !== null && !this.#listenedOn.has(channel)) {
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      this.#listenedOn.add(channel);
    }
    return async () => {
      subscribers.delete(subscription);
      if (subscribers.size > 0 || this.#channels.get(channel) !== subscribers) return;
      this.#channels.delete(channel);
      if (this.#up && this.#listenedOn.delete(channel)) {
        await this.#client?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
      }
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#up = false;
    if (this.#retry) clearTimeout(this.#retry);
    if (this.#ping) clearInterval(this.#ping);
    await this.#connecting?.catch(() => {});
    await this.#client?.end().catch(() => {});
    this.#client = null;
  }

  #connect(): Promise<void> {
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  async #open(): Promise<void> {
    const client = new pg.Client(this.#config);
    this.#client = client;
    client.on('error', () => this.#lost(client, 'connection error'));
    client.on('end', () => this.#lost(client, 'connection ended'));
    client.on('notification', (message) => {
      for (const subscription of this.#channels.get(message.channel) ?? [])
        subscription.onNotify(message.payload ?? '');
    });
    await client.connect();
    this.#listenedOn = new Set();
    for (const channel of [...this.#channels.keys()]) {
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      this.#listenedOn.add(channel);
    }
    if (this.#closed || this.#client !== client) {
      await client.end().catch(() => {});
      return;
    }
    this.#up = true;
    this.#startPing(client);
  }

  #startPing(client: pg.Client): void {
    if (this.#ping) clearInterval(this.#ping);
    this.#ping = setInterval(() => {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no answer')), PING_TIMEOUT_MS).unref(),
      );
      Promise.race([client.query('SELECT 1'), timeout]).catch(() => this.#lost(client, 'no answer to a ping'));
    }, PING_INTERVAL_MS);
    this.#ping.unref();
  }

  #lost(client: pg.Client, reason: string): void {
    if (this.#closed || this.#client !== client) return;
    this.#client = null;
    this.#up = false;
    if (this.#ping) clearInterval(this.#ping);
    client.removeAllListeners('notification');
    client.end().catch(() => {});
    if (this.#downSince === null) {
      this.#downSince = Date.now();
      this.#logger?.warn({ reason }, 'database listener lost; notifications may be missed until it reconnects');
    }
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retry) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.#attempts);
    this.#attempts++;
    // Jitter, so the processes of a deployment do not all come back in the same millisecond.
    this.#retry = setTimeout(() => void this.#reconnect(), delay * (0.5 + Math.random() / 2));
    this.#retry.unref();
  }

  async #reconnect(): Promise<void> {
    this.#retry = null;
    if (this.#closed || this.#up) return;
    try {
      await this.#connect();
    } catch (error) {
      const client = this.#client;
      this.#client = null;
      await client?.end().catch(() => {});
      if (this.#attempts === 1 || this.#attempts % 10 === 0) {
        this.#logger?.warn({ attempts: this.#attempts, err: error }, 'database listener still reconnecting');
      }
      this.#scheduleReconnect();
      return;
    }
    if (!this.#up) return;
    this.#logger?.info(
      { downMs: Date.now() - (this.#downSince ?? Date.now()), attempts: this.#attempts },
      'database listener reconnected; LISTEN again, subscribers resynchronised',
    );
    this.#downSince = null;
    this.#attempts = 0;
    for (const subscribers of this.#channels.values()) {
      for (const subscription of subscribers) subscription.onResume?.();
    }
  }
}

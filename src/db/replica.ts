// Reads that tolerate lag (lists, analytics, billing reads, segment counts) on a streaming replica
// (DATABASE_REPLICA_URL). A Kysely whose connections come from the replica while it is up and at
// most MAX_LAG_MS behind the primary, and from the primary otherwise, so a reader never sees data
// older than that bound. Lag is measured from the primary's WAL position: each second the primary's
// position is sampled, and the replica is as far behind as the oldest sample it has not replayed yet.
// Writes and the reads of a request that wrote never use it (the routes choose `reads` for GETs only).
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { createPgPool, reachable } from './connect.ts';
import { preparingPool } from './prepared-pool.ts';
import type { Database } from './schema.ts';

/** Reads go to the primary while the replica is further behind than this. */
export const MAX_LAG_MS = 5_000;
const CHECK_EVERY_MS = 1_000;

export type ReplicaState = 'up' | 'lagging' | 'down';

export interface ReplicaLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** A WAL position ('16/B374D848') as a number of bytes. */
const lsnBytes = (lsn: string) => {
  const [high, low] = lsn.split('/');
  return BigInt(`0x${high}`) * 2n ** 32n + BigInt(`0x${low}`);
};

export class ReplicaReads {
  readonly db: Kysely<Database>;
  #state: ReplicaState = 'up';
  #lagMs = 0;
  #samples: { at: number; lsn: bigint }[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #pool: pg.Pool;
  readonly #primary: PostgresPool;
  readonly #logger: ReplicaLogger;

  private constructor(pool: pg.Pool, primary: PostgresPool, logger: ReplicaLogger) {
    this.#pool = pool;
    this.#primary = primary;
    this.#logger = logger;
    const replica = preparingPool(pool);
    const routing: PostgresPool = {
      options: pool.options,
      connect: async (): Promise<PostgresPoolClient> => {
        if (this.#state !== 'up') return primary.connect();
        try {
          return await replica.connect();
        } catch (error) {
          this.#become('down', error);
          return primary.connect();
        }
      },
      end: async () => {},
    };
    this.db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: routing }) });
  }

  /** Connects to the replica (a wrong URL stops start-up, naming the variable) and starts measuring its lag. */
  static async connect(url: string, primary: PostgresPool, logger: ReplicaLogger, poolSize = 10) {
    const pool = createPgPool(url, poolSize);
    await reachable(pool, url, 'DATABASE_REPLICA_URL');
    const reads = new ReplicaReads(pool, primary, logger);
    await reads.check();
    reads.#timer = setInterval(() => void reads.check(), CHECK_EVERY_MS).unref();
    return reads;
  }

  get state(): ReplicaState {
    return this.#state;
  }

  /** How far behind the primary the replica was at the last check (ms); 0 when caught up. */
  get lagMs(): number {
    return this.#lagMs;
  }

  /** One measurement: the primary's position now, and how much of the sampled WAL the replica replayed. */
  async check(): Promise<void> {
    const now = Date.now();
    try {
      const client = await this.#primary.connect();
      try {
        const { rows } = await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn', []);
        this.#samples.push({ at: now, lsn: lsnBytes(rows[0]!.lsn) });
      } finally {
        client.release();
      }
    } catch {
      return; // The primary's own trouble is reported where it is used.
    }
    this.#samples = this.#samples.filter((s) => now - s.at <= 60_000 + MAX_LAG_MS);
    try {
      const { rows } = await this.#pool.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
      const replayed = rows[0]!.lsn === null ? null : lsnBytes(rows[0]!.lsn);
      const behind = this.#samples.find((s) => replayed === null || s.lsn > replayed);
      this.#lagMs = behind === undefined ? 0 : now - behind.at;
      this.#become(this.#lagMs > MAX_LAG_MS ? 'lagging' : 'up');
    } catch (error) {
      this.#become('down', error);
    }
  }

  /** One log line per change of state. */
  #become(state: ReplicaState, error?: unknown): void {
    if (state === this.#state) return;
    const was = this.#state;
    this.#state = state;
    if (state === 'up') this.#logger.info({ was, lagMs: this.#lagMs }, 'read replica in use again');
    else
      this.#logger.warn(
        { was, lagMs: this.#lagMs, err: error },
        state === 'down'
          ? 'read replica unreachable: reads go to the primary'
          : 'read replica lagging: reads go to the primary',
      );
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.db.destroy();
    await this.#pool.end();
  }
}

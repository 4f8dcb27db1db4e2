// Server-side prepared statements for node-postgres, under Kysely. Kysely sends every statement
// unnamed, so PostgreSQL parses, analyses and plans it on every execution; for the send path's
// statements that was most of the database's CPU. Here a statement with parameters gets a name made
// from its text, so each connection parses it once and PostgreSQL may settle on a generic plan.
// Statement texts vary (IN lists of different lengths), so each connection names at most
// NAMED_PER_CONNECTION distinct texts, first come first served; the rest run unnamed as before.
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

export const NAMED_PER_CONNECTION = 256;

const named = new WeakMap<pg.PoolClient, Set<string>>();
/** Statement text -> name: hashing a long statement on every call showed in profiles. */
const nameOfText = new Map<string, string>();
const NAME_CACHE_MAX = 4096;

function nameOf(text: string): string {
  let name = nameOfText.get(text);
  if (name === undefined) {
    name = `h${createHash('sha1').update(text).digest('base64url')}`;
    if (nameOfText.size >= NAME_CACHE_MAX) nameOfText.clear();
    nameOfText.set(text, name);
  }
  return name;
}

function statementName(client: pg.PoolClient, text: string): string | undefined {
  let names = named.get(client);
  if (names === undefined) {
    names = new Set();
    named.set(client, names);
  }
  const name = nameOf(text);
  if (names.has(name)) return name;
  if (names.size >= NAMED_PER_CONNECTION) return undefined;
  names.add(name);
  return name;
}

/** The pool Kysely's PostgresDialect is given: the real pool, with naming clients. */
export function preparingPool(pool: pg.Pool): PostgresPool {
  return {
    options: pool.options,
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      const query = (text: unknown, parameters?: readonly unknown[]): unknown => {
        // Cursors (streaming) and parameterless statements (BEGIN, COMMIT, DDL) pass through.
        if (typeof text !== 'string' || parameters === undefined || parameters.length === 0) {
          return (client.query as (...args: unknown[]) => unknown)(text, parameters);
        }
        return client.query({ text, values: [...parameters], name: statementName(client, text) });
      };
      return {
        query: query as PostgresPoolClient['query'],
        get processID() {
          return (client as unknown as { processID?: number }).processID;
        },
        release(destroy?: boolean) {
          client.release(destroy);
        },
      };
    },
    async end() {
      await pool.end();
    },
  };
}

// What a query function runs on: the database, or the caller's transaction (so the caller decides
// what commits together).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export type Db = Kysely<Database> | Transaction<Database>;

// Recording opens, both steps: the later opens (email-opens.ts recordLaterOpens), then the opens it
// found no tally for (first-opens.ts recordFirstOpens), each in its own transaction. The tracking
// pixel runs the two in separate group commits instead (src/tracking/routes.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { recordLaterOpens, type OpenInput } from './email-opens.ts';
import { recordFirstOpens } from './first-opens.ts';

/** Records a batch of opens; any number of opens per copy. Opens of emails the team does not have are dropped. */
export async function recordOpens(db: Kysely<Database>, opens: readonly OpenInput[]): Promise<void> {
  const firsts = await recordLaterOpens(db, opens);
  if (firsts.length > 0) await recordFirstOpens(db, firsts);
}

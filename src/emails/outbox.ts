// The outbox of HERALD_MAIL_TRANSPORT=log: every message the log transport "sends" is stored here,
// with its envelope, so an operator can read what Herald would have sent (`herald admin outbox`).
// The email (and with it the team and subject) is found from the envelope's return path, which the
// delivery worker wrote and HMAC-tagged; the transport itself knows nothing of emails.
import { type Kysely, type Selectable } from 'kysely';
import type { LoggedMessage, RecordMessage } from '../adapters/mail-transport/index.ts';
import type { Database, OutboxTable } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { parseReturnPath } from './return-path.ts';

export type OutboxRow = Selectable<OutboxTable>;

export interface OutboxDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
}

export async function storeInOutbox(deps: OutboxDeps, message: LoggedMessage): Promise<void> {
  const { db, clock, secrets } = deps;
  const emailId = parseReturnPath(message.envelope.from, secrets);
  // Herald ids are lower-case already, so the return path carries them unchanged.
  const email =
    emailId === null
      ? undefined
      : await db.selectFrom('emails').select(['id', 'team_id', 'subject']).where('id', '=', emailId).executeTakeFirst();
  await db
    .insertInto('outbox')
    .values({
      team_id: email?.team_id ?? null,
      email_id: email?.id ?? emailId,
      envelope_from: message.envelope.from,
      envelope_to: JSON.stringify(message.envelope.to),
      subject: email?.subject ?? null,
      raw: message.raw,
      created_at: clock.now(),
    })
    .execute();
}

/** The recorder the log transport is built with. */
export function outboxRecorder(deps: OutboxDeps): RecordMessage {
  return (message) => storeInOutbox(deps, message);
}

/** Stored messages, newest first; all teams' when teamId is null (an operator's view). */
export async function listOutbox(db: Kysely<Database>, teamId: number | null, limit: number): Promise<OutboxRow[]> {
  let query = db.selectFrom('outbox').selectAll();
  if (teamId !== null) query = query.where('team_id', '=', teamId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

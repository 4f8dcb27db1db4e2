// Every SQL statement of the outbox (outbox.ts): what the log transport "sends", and the operator's
// read of it. The email is found by the id in its return path alone (the transport knows no team),
// so the store statements span teams and say so; the read is one team's or, for an operator, all.
import type { Kysely, Selectable } from 'kysely';
import type { Database, OutboxTable } from '../db/schema.ts';

export type OutboxRow = Selectable<OutboxTable>;

/** The email a logged message belongs to, whichever team's (by id, from its return path). */
export async function findEmailOfMessage(db: Kysely<Database>, emailId: string) {
  return db.selectFrom('emails').select(['id', 'team_id', 'subject']).where('id', '=', emailId).executeTakeFirst();
}

export interface OutboxMessage {
  teamId: number | null;
  emailId: string | null;
  envelopeFrom: string;
  envelopeTo: string[];
  subject: string | null;
  raw: Buffer;
  at: Date;
}

/** Stores one logged message; its team is that of its email, null when none was found. */
export async function insertOutboxMessage(db: Kysely<Database>, message: OutboxMessage): Promise<void> {
  await db
    .insertInto('outbox')
    .values({
      team_id: message.teamId,
      email_id: message.emailId,
      envelope_from: message.envelopeFrom,
      envelope_to: JSON.stringify(message.envelopeTo),
      subject: message.subject,
      raw: message.raw,
      created_at: message.at,
    })
    .execute();
}

/** Stored messages, newest first; all teams' when teamId is null (an operator's view). */
export async function listOutbox(db: Kysely<Database>, teamId: number | null, limit: number): Promise<OutboxRow[]> {
  let query = db.selectFrom('outbox').selectAll();
  if (teamId !== null) query = query.where('team_id', '=', teamId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** One stored message by its id (an operator's view: any team's). */
export async function getOutboxMessage(db: Kysely<Database>, id: string): Promise<OutboxRow | undefined> {
  return db.selectFrom('outbox').selectAll().where('id', '=', BigInt(id)).executeTakeFirst();
}

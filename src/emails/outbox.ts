// The outbox of HERALD_MAIL_TRANSPORT=log: every message the log transport "sends" is stored here,
// with its envelope, so an operator can read what Herald would have sent (`herald admin outbox`).
// The email (and with it the team and subject) is found from the envelope's return path, which the
// delivery worker wrote and HMAC-tagged; the transport itself knows nothing of emails. The
// statements, and the operator's read (listOutbox), are in outbox-queries.ts.
import type { Kysely } from 'kysely';
import type { LoggedMessage, RecordMessage } from '../adapters/mail-transport/index.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { findEmailOfMessage, insertOutboxMessage } from './outbox-queries.ts';
import { parseReturnPath } from './return-path.ts';

interface OutboxDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
}

async function storeInOutbox(deps: OutboxDeps, message: LoggedMessage): Promise<void> {
  const { db, clock, secrets } = deps;
  const emailId = parseReturnPath(message.envelope.from, secrets);
  // Herald ids are lower-case already, so the return path carries them unchanged.
  const email = emailId === null ? undefined : await findEmailOfMessage(db, emailId);
  await insertOutboxMessage(db, {
    teamId: email?.team_id ?? null,
    emailId: email?.id ?? emailId,
    envelopeFrom: message.envelope.from,
    envelopeTo: message.envelope.to,
    subject: email?.subject ?? null,
    raw: message.raw,
    at: clock.now(),
  });
}

/** The recorder the log transport is built with. */
export function outboxRecorder(deps: OutboxDeps): RecordMessage {
  return (message) => storeInOutbox(deps, message);
}

// The `log` provider's outbox: every message it "sends" is kept here for the operator
// (GET /admin/v1/sms/outbox, `herald admin sms-outbox`), full number and text.
import type { Kysely } from 'kysely';
import type { KeepSms } from '../adapters/sms-provider/index.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { keepInOutbox } from './queries.ts';

export function smsOutboxKeeper(db: Kysely<Database>, clock: Clock): KeepSms {
  return async (message) => {
    const now = clock.now();
    await keepInOutbox(db, {
      id: newId('sob_', now),
      smsId: message.id,
      to: message.to,
      from: message.from,
      text: message.text,
      createdAt: now,
    });
  };
}

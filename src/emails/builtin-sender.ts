// The built-in domain (HERALD_MAIL_DOMAIN, src/domains/builtin-domain.ts) sends only to the team's
// own members, so a new team can send its first email at once and nobody can spam from Herald's
// name. Checked by queueEmails, so this read runs in the same transaction as the store.
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../platform/errors.ts';
import { listMembers } from '../accounts/index.ts';

/** 403 naming the first recipient who is not a member of the team. */
export async function checkBuiltinRecipients(
  tx: Transaction<Database>,
  teamId: number,
  recipients: string[],
  at: (field: string) => string,
): Promise<void> {
  const members = new Set((await listMembers(tx, teamId)).map((m) => m.email.toLowerCase()));
  const outsider = recipients.find((address) => !members.has(address));
  if (outsider === undefined) return;
  throw new ApiError(
    403,
    'FORBIDDEN',
    `${at('to')}: ${outsider} is not a member of this team; Herald's own domain sends only to the team's members. ` +
      'To send to anyone, add your domain (POST /v1/domains), publish its DNS records and send from it once verified.',
  );
}

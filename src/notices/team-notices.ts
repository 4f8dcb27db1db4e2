// Notices to a team's owner and admins (contract, Webhooks rule 3: adding, repointing or removing a
// webhook emails them, naming the key). queueTeamNotice writes the notice in the caller's
// transaction; the team-notices queue (notices-queue.ts) mails it after commit.
import { notifyQueue } from '../queue/index.ts';
import type { Db } from '../db/handle.ts';
import { apiKeyName, ownerAndAdminEmails } from '../accounts/index.ts';
import { insertTeamNotice } from './queries.ts';

export const TEAM_NOTICES_QUEUE = 'team-notices';

interface TeamNotice {
  /** e.g. webhook.created; kept for the outbox reader and tests. */
  kind: string;
  subject: string;
  text: string;
}

/** Who did it, as the notice names them: the key's name and id (never the key itself). */
interface ActingKey {
  keyId: string;
  keyName: string | null;
}

export function describeKey(key: ActingKey): string {
  return key.keyName === null || key.keyName === ''
    ? `API key ${key.keyId}`
    : `API key "${key.keyName}" (${key.keyId})`;
}

/** Writes one notice addressed to the team's owners and admins today; none when it has none. */
export async function queueTeamNotice(tx: Db, teamId: number, notice: TeamNotice, now: Date): Promise<void> {
  const recipients = await ownerAndAdminEmails(tx, teamId);
  if (recipients.length === 0) return;
  await insertTeamNotice(tx, teamId, recipients, notice, now);
  await notifyQueue(tx, TEAM_NOTICES_QUEUE);
}

/** The name a key was given, for notices. */
export async function actingKey(db: Db, teamId: number, keyId: string): Promise<ActingKey> {
  return { keyId, keyName: await apiKeyName(db, teamId, keyId) };
}

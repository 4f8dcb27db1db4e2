// The emails a team's owner and admins get about its webhooks (contract, Webhooks rule 3 and Events
// rule 7: added, repointed or removed, naming the key; Herald adds: auto-disabled).
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { actingKey, describeKey, queueTeamNotice } from '../notices/index.ts';

type Change =
  { kind: 'created'; url: string } | { kind: 'repointed'; from: string; to: string } | { kind: 'deleted'; url: string };

function wording(change: Change): { subject: string; body: string } {
  switch (change.kind) {
    case 'created':
      return { subject: 'A webhook was added to your team', body: `Events will be sent to:\n  ${change.url}` };
    case 'repointed':
      return {
        subject: 'A webhook of your team now points at a new URL',
        body: `Events now go to:\n  ${change.to}\nThey went to:\n  ${change.from}`,
      };
    case 'deleted':
      return { subject: 'A webhook was removed from your team', body: `Events no longer go to:\n  ${change.url}` };
  }
}

export async function noticeWebhookChange(
  tx: Transaction<Database>,
  teamId: number,
  webhookId: string,
  keyId: string,
  change: Change,
  now: Date,
): Promise<void> {
  const key = describeKey(await actingKey(tx, teamId, keyId));
  const { subject, body } = wording(change);
  const text = `${body}\n\nWebhook: ${webhookId}\nChanged by: ${key}\nAt: ${now.toISOString()}\n\nIf you did not expect this change, delete the key and review your webhooks.\n`;
  await queueTeamNotice(tx, teamId, { kind: `webhook.${change.kind}`, subject, text }, now);
}

export async function noticeAutoDisabled(
  tx: Transaction<Database>,
  teamId: number,
  webhook: { id: string; url: string; failingSince: Date },
  now: Date,
): Promise<void> {
  const text =
    `Every delivery to this webhook has failed since ${webhook.failingSince.toISOString()}, so Herald turned it off ` +
    `and dropped its pending calls.\n\n  ${webhook.url}\n\nWebhook: ${webhook.id}\n\n` +
    'Fix the endpoint, then set the webhook ACTIVE again (POST /v1/webhooks/{id}/status); dropped calls can be retried.\n';
  await queueTeamNotice(
    tx,
    teamId,
    { kind: 'webhook.auto_disabled', subject: 'A webhook of your team was turned off after repeated failures', text },
    now,
  );
}

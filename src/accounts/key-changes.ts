// What creating or revoking a key through the API also writes, in the change's own transaction: an
// email to the team's owners and admins (as webhook changes do) and an audit log entry. The writers
// are the notices' and billing's; both areas import accounts, so app.ts hands them in (no area cycle).
import type { Transaction } from 'kysely';
import type { ApiKeyKind, Database } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { apiKeyName, getMember } from './queries.ts';

/** The other areas' writers a key change calls (notices' queueTeamNotice, billing's auditChange). */
export interface KeyChangeWriters {
  teamNotice(
    tx: Transaction<Database>,
    teamId: number,
    notice: { kind: string; subject: string; text: string },
    now: Date,
  ): Promise<void>;
  auditChange(
    tx: Transaction<Database>,
    principal: Principal,
    change: {
      action: 'api_key.created' | 'api_key.revoked';
      target: string;
      method: string;
      path: string;
      status: number;
      at: Date;
    },
  ): Promise<void>;
}

/** The key created or revoked, as the notice names it (never the key itself). */
export interface ChangedKey {
  id: string;
  kind: ApiKeyKind;
  name: string | null;
  hint: string;
  domainId: number | null;
}

const KIND_NAMES: Record<ApiKeyKind, string> = {
  full: 'full access',
  readonly: 'read only',
  sending: 'sending access',
  sandbox: 'sandbox',
  live_ai: 'live AI',
};

const named = (id: string, name: string | null) =>
  name === null || name === '' ? `API key ${id}` : `API key "${name}" (${id})`;

/** Who made the change: the calling key, and the member who made that key. */
async function actor(tx: Transaction<Database>, principal: Principal): Promise<string> {
  const key = named(principal.keyId, await apiKeyName(tx, principal.teamId, principal.keyId));
  const member = principal.memberId === null ? undefined : await getMember(tx, principal.teamId, principal.memberId);
  return member ? `${key}, made by ${member.email}` : key;
}

function keyLines(key: ChangedKey): string {
  const lines = [`Key: ${named(key.id, key.name)}, ending ${key.hint}`, `Kind: ${KIND_NAMES[key.kind]}`];
  if (key.domainId !== null) lines.push(`Limited to domain: ${key.domainId}`);
  return lines.join('\n');
}

export async function recordKeyChange(
  tx: Transaction<Database>,
  writers: KeyChangeWriters,
  principal: Principal,
  change: { kind: 'created' | 'revoked'; key: ChangedKey; path: string; status: number },
  now: Date,
): Promise<void> {
  const { key } = change;
  await writers.auditChange(tx, principal, {
    action: `api_key.${change.kind}`,
    target: key.id,
    method: change.kind === 'created' ? 'POST' : 'DELETE',
    path: change.path,
    status: change.status,
    at: now,
  });
  const by = await actor(tx, principal);
  const notice =
    change.kind === 'created'
      ? {
          subject: 'A new API key was created for your team',
          text:
            `A new ${KIND_NAMES[key.kind]} API key was created for your team.\n\n${keyLines(key)}\n` +
            `Created by: ${by}\nAt: ${now.toISOString()}\n\n` +
            `If you did not expect this, revoke the key (DELETE /v1/api-keys/${key.id}) and review your team's keys.\n`,
        }
      : {
          subject: 'An API key of your team was revoked',
          text:
            `An API key of your team was revoked; requests made with it now answer 401.\n\n${keyLines(key)}\n` +
            `Revoked by: ${by}\nAt: ${now.toISOString()}\n\n` +
            "If you did not expect this, review your team's keys and revoke the one that did it.\n",
        };
  await writers.teamNotice(tx, principal.teamId, { kind: `api_key.${change.kind}`, ...notice }, now);
}

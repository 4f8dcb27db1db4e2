// POST /v1/emails and /v1/emails/batch. Every check that needs no database runs first (contract
// rule 1: 400/403/422 before anything is stored); then one of two paths stores the send:
// - the one-statement send (sendInOneStatement): a send without a reply (inReplyToId), from a team
//   whose plan has a daily limit and no monthly one (the key's plan hint), in the API process (its
//   coalescers). Templates are read first; then one statement, shared with concurrent sends,
//   checks the plan's limit, verified domains, suppressions and unsubscribes itself and stores the
//   emails with their reservation on one usage shard (store-queries.ts). When anything is not as
//   hoped (a suppressed recipient, an unverified domain, the first send of the day, a full shard, a
//   changed plan) it stores nothing and the transaction send answers.
// - the transaction send (queue-emails.ts): every rule read and checked in one transaction with
//   the day's usage locked (limits.ts). Taken in every other case and as the fallback, so every
//   error and every SUPPRESSED event comes from it.
// The sends of each path are counted in herald_email_sends_total{path}.
import type { Kysely } from 'kysely';
import { Counter, type Registry } from 'prom-client';
import type { Database } from '../db/schema.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import type { Clock } from '../platform/clock.ts';
import { Coalescer } from '../platform/coalescer.ts';
import type { QueueAnnouncer } from '../queue/index.ts';
import { getTemplateForSend, type TemplateForSend } from '../templates/index.ts';
import { dayOf, oneStatementPlan } from './limits.ts';
import { EMAIL_DELIVERY_QUEUE, queueCheckedEmails } from './queue-emails.ts';
import { buildEmails, checkInputs, NOTHING_READ, partsOf, type CheckedInput } from './send-rules.ts';
import type { SendEmailInput } from './schemas.ts';
import { storeSends, type Companion, type CompletedKey, type StoreJob } from './store-queries.ts';

export { EMAIL_DELIVERY_QUEUE };

export interface SendDeps {
  db: Kysely<Database>;
  clock: Clock;
  announcer: QueueAnnouncer;
  /** The API process's coalescers (sendBatching); without them every send takes the transaction send. */
  batching?: SendBatching;
  /** HERALD_MAIL_DOMAIN: the built-in domain, sent from only by the transaction send (builtin-sender.ts). */
  config?: { mailDomain: string };
}

/** Concurrent one-statement sends of a process share their store statement. */
export interface SendBatching {
  store: Coalescer<StoreJob, boolean>;
  /** Stored sends by path. */
  sends: Counter<'path'>;
}

/** Largest number of sends in one statement. */
const STORE_BATCH_MAX = 64;

export function sendBatching(db: Kysely<Database>, metrics: Registry): SendBatching {
  return {
    store: new Coalescer<StoreJob, boolean>((jobs) => storeSends(db, jobs), {
      maxBatch: STORE_BATCH_MAX,
      concurrency: 2,
    }),
    sends: new Counter({
      name: 'herald_email_sends_total',
      help: 'Sends stored by POST /v1/emails and /v1/emails/batch, by store path (one-statement or transaction)',
      labelNames: ['path'],
      registers: [metrics],
    }),
  };
}

/** Whether the one-statement send may store this send at all (never from the built-in domain). */
function oneStatementApplies(
  deps: SendDeps,
  principal: Principal,
  inputs: SendEmailInput[],
  checked: CheckedInput[],
): boolean {
  return (
    deps.batching !== undefined &&
    checked.every((c) => c.fromDomain !== deps.config?.mailDomain) &&
    principal.planHint !== null &&
    oneStatementPlan(principal.planHint) &&
    inputs.every((input) => input.inReplyToId === undefined)
  );
}

/** The one-statement send (see the top of this file). Null when it stored nothing. */
async function sendInOneStatement(
  deps: SendDeps & { batching: SendBatching },
  principal: Principal,
  inputs: SendEmailInput[],
  checked: CheckedInput[],
  extras: { completedKey?: (ids: string[]) => CompletedKey; companion?: (ids: string[]) => Companion } = {},
): Promise<string[] | null> {
  const { completedKey, companion } = extras;
  const teamId = principal.teamId;
  const templates = new Map<string, TemplateForSend>();
  for (const id of new Set(inputs.flatMap((input) => (input.templateId === undefined ? [] : [input.templateId])))) {
    const template = await getTemplateForSend(deps.db, teamId, id);
    if (!template) return null; // the transaction send answers 404 naming the field
    templates.set(id, template);
  }
  const now = deps.clock.now();
  const prepared = inputs.map((input, i) => ({
    input,
    domainId: 0,
    ...checked[i]!,
    ...partsOf(input, input.templateId === undefined ? null : templates.get(input.templateId)!),
  }));
  const { emails, wanted } = buildEmails(prepared, NOTHING_READ, principal.keyId, now);
  const ids = emails.map((e) => e.id);
  const job: StoreJob = {
    teamId,
    now,
    emails,
    oneStatement: {
      day: dayOf(now),
      ...wanted,
      fromDomains: checked.map((c) => c.fromDomain),
      addresses: [...new Set(checked.flatMap((c) => c.recipients))],
    },
    ...(completedKey ? { idempotency: completedKey(ids) } : {}),
    ...(companion ? { companion: companion(ids) } : {}),
  };
  try {
    if (!(await deps.batching.store.submit(job))) return null;
  } catch (error) {
    // The same Idempotency-Key, sent again while the first was being stored: the key decides (claim).
    if (completedKey && isUniqueViolation(error, 'idempotency_keys_pkey')) return null;
    throw error;
  }
  deps.batching.sends.inc({ path: 'one-statement' });
  if (emails.some((e) => e.status === 'QUEUED')) deps.announcer.announce(EMAIL_DELIVERY_QUEUE);
  return ids;
}

/** The transaction send, in a transaction of its own. */
async function sendInTransaction(
  deps: SendDeps,
  principal: Principal,
  inputs: SendEmailInput[],
  checked: CheckedInput[],
  batch: boolean,
): Promise<string[]> {
  const { ids, queued } = await deps.db.transaction().execute((tx) =>
    queueCheckedEmails(tx, principal, inputs, checked, {
      now: deps.clock.now(),
      batch,
      ...(deps.config ? { mailDomain: deps.config.mailDomain } : {}),
    }),
  );
  deps.batching?.sends.inc({ path: 'transaction' });
  if (queued) deps.announcer.announce(EMAIL_DELIVERY_QUEUE);
  return ids;
}

/**
 * A send carrying an Idempotency-Key (inline mode of platform/idempotency.ts): tried on the
 * one-statement send with the key's completed entry, holding `responseOf(ids)`, written in the same
 * statement as the emails. Null when that path did not store it (the key exists, or the send needs
 * the transaction send): the caller then claims the key and calls sendEmails.
 */
export async function sendEmailsWithKey(
  deps: SendDeps,
  principal: Principal,
  inputs: SendEmailInput[],
  batch: boolean,
  completedKey: (ids: string[]) => CompletedKey,
): Promise<string[] | null> {
  const checked = await checkInputs(deps.db, principal, inputs, batch);
  if (!oneStatementApplies(deps, principal, inputs, checked)) return null;
  return sendInOneStatement(deps as SendDeps & { batching: SendBatching }, principal, inputs, checked, {
    completedKey,
  });
}

/**
 * One email stored together with a row of the caller's (`companion(emailIds)`) in one statement of
 * the one-statement send: both exist or neither does. Null when that path did not store them; the
 * caller then stores both in a transaction of its own through queueEmails.
 */
export async function sendEmailWithCompanion(
  deps: SendDeps,
  principal: Principal,
  input: SendEmailInput,
  companion: (emailIds: string[]) => Companion,
): Promise<string | null> {
  const checked = await checkInputs(deps.db, principal, [input], false);
  if (!oneStatementApplies(deps, principal, [input], checked)) return null;
  const ids = await sendInOneStatement(deps as SendDeps & { batching: SendBatching }, principal, [input], checked, {
    companion,
  });
  return ids?.[0] ?? null;
}

/** Sends each input; returns their ids in order. In a batch, field names are prefixed with `[i].`. */
export async function sendEmails(
  deps: SendDeps,
  principal: Principal,
  inputs: SendEmailInput[],
  batch: boolean,
): Promise<string[]> {
  const checked = await checkInputs(deps.db, principal, inputs, batch);
  if (oneStatementApplies(deps, principal, inputs, checked)) {
    const ids = await sendInOneStatement(deps as SendDeps & { batching: SendBatching }, principal, inputs, checked);
    if (ids !== null) return ids;
  }
  return sendInTransaction(deps, principal, inputs, checked, batch);
}

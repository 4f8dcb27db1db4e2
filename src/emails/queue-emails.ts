// The transaction send: every rule of a send, run inside a transaction, the emails stored in it.
// Other areas call queueEmails with their own transaction (double opt-in, one-time codes, journeys),
// so their row and the email commit together or not at all; the HTTP send routes run it in a
// transaction of their own when the one-statement send does not apply or stores nothing (send.ts).
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError, badRequest } from '../platform/errors.ts';
import { insertCompletedKey, storedResponseOf } from '../platform/idempotency.ts';
import { notifyQueue } from '../queue/index.ts';
import { getTemplateForSend, type TemplateForSend } from '../templates/index.ts';
import { checkBuiltinRecipients } from './builtin-sender.ts';
import { checkSendSize, reserveLocked } from './limits.ts';
import { existingEmailIds, readSendContexts } from './queries.ts';
import { buildEmails, checkInputs, fieldOf, partsOf, type CheckedInput, type PreparedInput } from './send-rules.ts';
import { SendBatchBody, SendEmailBody, type SendEmailInput } from './schemas.ts';
import { storeSends } from './store-queries.ts';

/** The queue the delivery worker claims emails from. */
export const EMAIL_DELIVERY_QUEUE = 'email-delivery';

export interface QueueEmailsOptions {
  /** The time of the send (the caller's deps.clock). */
  now: Date;
  /** Field names in errors prefixed with `[i].`, as POST /v1/emails/batch does. Default: more than one input. */
  batch?: boolean;
  /**
   * Sends at most once per key and team within 24 hours (the table of the Idempotency-Key header):
   * called again with the same key and inputs, it stores nothing and returns the first call's ids;
   * with other inputs, 409 NOT_UNIQUE.
   */
  idempotencyKey?: string;
  /**
   * HERALD_MAIL_DOMAIN (deps.config.mailDomain): when given, a team without a verified domain of
   * that name may send from it, to its own members only (builtin-sender.ts).
   */
  mailDomain?: string;
}

/**
 * Sends `inputs` (the body of POST /v1/emails, or of the batch) as `principal`, inside `tx`: the
 * same checks and ApiErrors as the HTTP route (verified from domain and the key's domain limit,
 * templates and variables, the 50-recipient rule, replies, suppressions and unsubscribes, the
 * plan's daily and monthly limits under the usage lock), then the emails with their first events
 * and recipients. The delivery workers are woken by a NOTIFY in `tx`, delivered at its commit.
 * Returns the email ids in input order. On an error the caller's transaction must roll back.
 */
export async function queueEmails(
  tx: Transaction<Database>,
  principal: Principal,
  inputs: SendEmailInput[],
  options: QueueEmailsOptions,
): Promise<string[]> {
  const batch = options.batch ?? inputs.length > 1;
  inputs = validated(inputs, batch);
  const checked = await checkInputs(tx, principal, inputs, batch);
  const { ids, queued } = await queueCheckedEmails(tx, principal, inputs, checked, { ...options, batch });
  // NOTIFY at commit serialises notifying commits cluster-wide; fine for these low-volume callers
  // (the HTTP routes announce after their commit instead, through deps.announcer).
  if (queued) await notifyQueue(tx, EMAIL_DELIVERY_QUEUE);
  return ids;
}

/**
 * queueEmails once checkInputs has run (the HTTP routes ran it before trying the one-statement
 * send), without waking the delivery workers: `queued` says whether the caller must.
 */
export async function queueCheckedEmails(
  tx: Transaction<Database>,
  principal: Principal,
  inputs: SendEmailInput[],
  checked: CheckedInput[],
  options: QueueEmailsOptions & { batch: boolean },
): Promise<{ ids: string[]; queued: boolean }> {
  const { now, batch, idempotencyKey } = options;
  const teamId = principal.teamId;
  const requestHash = idempotencyKey === undefined ? '' : hashOfInputs(inputs);
  if (idempotencyKey !== undefined) {
    const earlier = await storedResponseOf(tx, teamId, idempotencyKey, requestHash, now);
    if (earlier !== null) return { ids: idsOf(earlier), queued: false };
  }
  // One round trip for the team's plan, its verified domains among the from domains, and its
  // suppressions and unsubscribes among the recipients.
  const [context] = await readSendContexts(tx, [
    {
      teamId,
      domainNames: [...new Set(checked.map((c) => c.fromDomain))],
      addresses: [...new Set(checked.flatMap((c) => c.recipients))],
    },
  ]);
  if (context!.plan === null) throw new ApiError(404, 'NOT_FOUND', 'Team not found');
  // A reply must answer an email of the same team (another team's is as missing as an unknown id).
  const answered = await existingEmailIds(tx, teamId, [
    ...new Set(inputs.flatMap((i) => (i.inReplyToId ? [i.inReplyToId] : []))),
  ]);
  const prepared: PreparedInput[] = [];
  for (const [index, input] of inputs.entries()) {
    const at = fieldOf(batch, index);
    const { fromDomain, recipients } = checked[index]!;
    if (input.inReplyToId && !answered.has(input.inReplyToId))
      throw new ApiError(404, 'NOT_FOUND', `${at('inReplyToId')}: email not found`);
    let domainId: number | null | undefined = context!.domains.get(fromDomain);
    if (domainId === undefined && fromDomain === options.mailDomain) {
      await checkBuiltinRecipients(tx, teamId, recipients, at);
      domainId = null;
    }
    if (domainId === undefined) throw badRequest(`${at('from')}: ${fromDomain} is not a verified domain of this team`);
    let template: TemplateForSend | null = null;
    if (input.templateId !== undefined) {
      template = (await getTemplateForSend(tx, teamId, input.templateId)) ?? null;
      if (!template) throw new ApiError(404, 'NOT_FOUND', `${at('templateId')}: template not found`);
    }
    prepared.push({ input, domainId, fromDomain, recipients, ...partsOf(input, template) });
  }
  const { emails, wanted } = buildEmails(prepared, context!, principal.keyId, now);
  const ids = emails.map((e) => e.id);
  checkSendSize(context!.plan, wanted);
  if (idempotencyKey !== undefined) {
    const entry = { key: idempotencyKey, requestHash, body: JSON.stringify({ emailIds: ids }) };
    // Another transaction wrote the key meanwhile: it committed first, so its send stands.
    if (!(await insertCompletedKey(tx, teamId, entry, now))) {
      const theirs = await storedResponseOf(tx, teamId, idempotencyKey, requestHash, now);
      if (theirs !== null) return { ids: idsOf(theirs), queued: false };
      throw new ApiError(
        409,
        'NOT_UNIQUE',
        'A request with this Idempotency-Key is still being processed; retry later',
      );
    }
  }
  await reserveLocked(tx, teamId, context!.plan, now, wanted);
  const [stored] = await storeSends(tx, [{ teamId, now, emails }]);
  if (!stored) throw new Error(`the ${emails.length} emails of a send were not stored`);
  return { ids, queued: emails.some((e) => e.status === 'QUEUED') };
}

/** The route's own schema, with its 400 naming the field (`[i].field` in a batch). */
function validated(inputs: SendEmailInput[], batch: boolean): SendEmailInput[] {
  if (!batch && inputs.length !== 1) throw new Error('queueEmails: one input, or batch: true');
  const parsed = batch ? SendBatchBody.safeParse(inputs) : SendEmailBody.safeParse(inputs[0]);
  if (parsed.success) return batch ? (parsed.data as SendEmailInput[]) : [parsed.data as SendEmailInput];
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
  throw badRequest(`${field.replace(/^\./, '') || 'body'}: ${issue.message}`);
}

const hashOfInputs = (inputs: SendEmailInput[]) =>
  createHash('sha256')
    .update(`queueEmails\n${JSON.stringify(inputs)}`)
    .digest('base64url');

const idsOf = (body: string) => (JSON.parse(body) as { emailIds: string[] }).emailIds;

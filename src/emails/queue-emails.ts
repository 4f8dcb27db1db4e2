// The one door for storing emails: every rule of a send checked once, in code, inside the caller's
// transaction, then the emails stored in it. Every caller goes through here: the HTTP send routes
// (send.ts, alone or many callers in one shared transaction, send-batch.ts), one-time codes, journeys,
// double opt-in and notices, so their own row and the email commit together or not at all.
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError, badRequest } from '../platform/errors.ts';
import { notifyQueue } from '../queue/index.ts';
import { getTemplateForSend, type TemplateForSend } from '../templates/index.ts';
import { checkBuiltinRecipients } from './builtin-sender.ts';
import { checkSendSize, reserveLocked } from './limits.ts';
import { insertEmails } from './insert-queries.ts';
import { existingEmailIds, readSendContexts } from './queries.ts';
import { buildEmails, checkInputs, fieldOf, partsOf, type PreparedInput } from './send-rules.ts';
import { SendBatchBody, SendEmailBody, type SendEmailInput } from './schemas.ts';

/** The queue the delivery worker claims emails from. */
export const EMAIL_DELIVERY_QUEUE = 'email-delivery';

export interface QueueEmailsOptions {
  /** The time of the send (the caller's deps.clock). */
  now: Date;
  /** Field names in errors prefixed with `[i].`, as POST /v1/emails/batch does. Default: more than one input. */
  batch?: boolean;
  /**
   * HERALD_MAIL_DOMAIN (deps.config.mailDomain): when given, a team without a verified domain of
   * that name may send from it, to its own members only (builtin-sender.ts).
   */
  mailDomain?: string;
  /**
   * Who wakes the delivery workers: 'notify' (default) a NOTIFY in `tx`, delivered at its commit;
   * 'caller' nobody here, the caller announces after its commit when `queued` (the HTTP routes).
   */
  wake?: 'notify' | 'caller';
}

export interface QueuedEmails {
  /** The email ids, in input order. */
  ids: string[];
  /** Whether any of them is due now (QUEUED, not SCHEDULED or SUPPRESSED). */
  queued: boolean;
}

/**
 * Sends `inputs` (the body of POST /v1/emails, or of the batch) as `principal`, inside `tx`: the
 * same checks and ApiErrors as the HTTP route (the body schema, verified from domain and the key's
 * domain limit, templates and variables, the 50-recipient rule, replies, suppressions and
 * unsubscribes, the plan's daily and monthly limits under the usage lock), then the emails with
 * their first events and recipients. Returns the email ids in input order.
 *
 * Every ApiError is thrown before anything of the send is written (empty usage rows of the day
 * aside), so a caller sharing `tx` with other sends may answer it and still commit theirs
 * (send-batch.ts). Any other error: the caller's transaction must roll back.
 */
export async function queueEmails(
  tx: Transaction<Database>,
  principal: Principal,
  inputs: SendEmailInput[],
  options: QueueEmailsOptions,
): Promise<string[]> {
  return (await queueEmailsOf(tx, principal, inputs, options)).ids;
}

/** queueEmails, also saying whether the delivery workers have work now (for `wake: 'caller'`). */
export async function queueEmailsOf(
  tx: Transaction<Database>,
  principal: Principal,
  inputs: SendEmailInput[],
  options: QueueEmailsOptions,
): Promise<QueuedEmails> {
  const { now } = options;
  const batch = options.batch ?? inputs.length > 1;
  inputs = validated(inputs, batch);
  const teamId = principal.teamId;
  const checked = await checkInputs(tx, principal, inputs, batch);
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
  checkSendSize(context!.plan, wanted);
  await reserveLocked(tx, teamId, context!.plan, now, wanted);
  await insertEmails(tx, teamId, now, emails);
  const queued = emails.some((e) => e.status === 'QUEUED');
  // NOTIFY at commit serialises notifying commits cluster-wide; fine for the low-volume callers
  // (the HTTP routes announce after their commit instead, through deps.announcer).
  if (queued && options.wake !== 'caller') await notifyQueue(tx, EMAIL_DELIVERY_QUEUE);
  return { ids: emails.map((e) => e.id), queued };
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

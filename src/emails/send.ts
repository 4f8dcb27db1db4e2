// POST /v1/emails and /v1/emails/batch: every check runs before anything is stored (contract rule 1);
// then one statement reserves the send quota and stores the emails with their first events
// (limits.ts, store.ts), and the delivery workers are woken after commit. Under load, concurrent
// sends share the context read and the store statement (SendBatching).
import type { Kysely } from 'kysely';
import type { Database, EmailStatus, TeamPlan, TemplateType } from '../db/schema.ts';
import { Coalescer } from '../platform/coalescer.ts';
import { domainName } from '../domains/index.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import type { Clock } from '../platform/clock.ts';
import { ApiError, badRequest } from '../platform/errors.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { newId } from '../platform/ids.ts';
import type { QueueAnnouncer } from '../queue/index.ts';
import { getTemplateForSend, renderTemplate, type TemplateForSend, type TemplateParts } from '../templates/index.ts';
import {
  checkSendSize,
  countByType,
  optimisticReservation,
  reserveLocked,
  shardReservation,
  type Reservation,
} from './limits.ts';
import {
  existingEmailIds,
  readSendContexts,
  type ContextQuestion,
  type NewEmail,
  type SendContext,
} from './queries.ts';
import { emailStoreCoalescer, storeEmailJobs, type CompletedKey, type StoreJob } from './store.ts';
import { RECIPIENTS_MAX, distinctRecipients, domainOf, parseAddress } from './recipients.ts';
import type { SendEmailInput } from './schemas.ts';
import { withUnsubscribePlaceholder } from './unsubscribe-link.ts';

/** The queue the delivery worker claims emails from. */
export const EMAIL_DELIVERY_QUEUE = 'email-delivery';

export interface SendDeps {
  db: Kysely<Database>;
  clock: Clock;
  announcer: QueueAnnouncer;
  /** The API process's coalescers (sendBatching); without them every send has its own statements. */
  batching?: SendBatching;
}

/** Concurrent sends of a process share their context read and their store statement. */
export interface SendBatching {
  context: Coalescer<ContextQuestion, SendContext>;
  store: Coalescer<StoreJob, boolean>;
}

export function sendBatching(db: Kysely<Database>): SendBatching {
  return {
    context: new Coalescer((questions) => readSendContexts(db, questions), { maxBatch: 64, concurrency: 2 }),
    store: emailStoreCoalescer(db),
  };
}

interface Prepared {
  input: SendEmailInput;
  domainId: number;
  recipients: string[];
  parts: TemplateParts;
  type: TemplateType;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The preview text a template supplies, as the usual hidden preheader at the top of the body. */
function withPreheader(html: string | null, previewText: string | null): string | null {
  if (html === null || !previewText) return html;
  return `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeHtml(previewText)}</div>${html}`;
}

/** Subject and bodies as sent: the template's (subject unless given, preview text, type, HTML), variables filled. */
function partsOf(
  input: SendEmailInput,
  template: TemplateForSend | null,
): { parts: TemplateParts; type: TemplateType } {
  let parts: TemplateParts = { subject: input.subject ?? '', html: input.html ?? null, text: input.text ?? null };
  const type: TemplateType = template?.type ?? 'TRANSACTIONAL';
  if (template !== null)
    parts = {
      subject: input.subject ?? template.subject,
      html: withPreheader(template.html, template.previewText),
      text: input.text ?? null,
    };
  if (template !== null || input.variables !== undefined) {
    const variables = input.variables ?? {};
    parts = renderTemplate(parts, type === 'MARKETING' ? withUnsubscribePlaceholder(variables) : variables);
  }
  return { parts, type };
}

const NOTHING_READ: SendContext = { plan: null, domains: new Map(), suppressed: new Set(), unsubscribed: new Set() };

/**
 * A plain send (no template, no reply) stored without reading anything first: the store statement
 * checks the plan's limit, the domains and the suppressions itself and stores nothing when any of
 * them is not as hoped (then the full path runs and says why). Null when it did not store.
 */
async function sendOptimistic(
  deps: SendDeps,
  principal: Principal,
  inputs: SendEmailInput[],
  checked: { fromDomain: string; recipients: string[] }[],
  completedKey?: (ids: string[]) => CompletedKey,
): Promise<string[] | null> {
  if (!deps.batching || inputs.some((input) => input.templateId !== undefined || input.inReplyToId !== undefined))
    return null;
  const now = deps.clock.now();
  const prepared = inputs.map((input, i) => ({
    input,
    domainId: 0,
    recipients: checked[i]!.recipients,
    ...partsOf(input, null),
  }));
  const { emails, wanted } = buildEmails(prepared, NOTHING_READ, principal.keyId, now);
  const ids = emails.map((e) => e.id);
  const reservation = optimisticReservation(now, wanted);
  const optimistic = {
    fromDomains: checked.map((c) => c.fromDomain),
    addresses: [...new Set(checked.flatMap((c) => c.recipients))],
  };
  const job: StoreJob = {
    teamId: principal.teamId,
    now,
    emails,
    reservation,
    optimistic,
    ...(completedKey ? { idempotency: completedKey(ids) } : {}),
  };
  try {
    if (!(await deps.batching.store.submit(job))) return null;
  } catch (error) {
    // The same Idempotency-Key, sent again while the first was being stored: the key decides (claim).
    if (completedKey && isUniqueViolation(error, 'idempotency_keys_pkey')) return null;
    throw error;
  }
  if (emails.some((e) => e.status === 'QUEUED')) deps.announcer.announce(EMAIL_DELIVERY_QUEUE);
  return ids;
}

/** The checks that need nothing from the database, for every input (400/403/422 before anything else). */
async function checkInputs(deps: SendDeps, principal: Principal, inputs: SendEmailInput[], batch: boolean) {
  const keyDomain =
    principal.domainId === null ? null : ((await domainName(deps.db, principal.teamId, principal.domainId)) ?? '');
  return inputs.map((input, index) => checkAddresses(input, index, batch, keyDomain));
}

/**
 * A send carrying an Idempotency-Key (inline mode of platform/idempotency.ts): tried on the
 * optimistic path with the key's completed entry, holding `responseOf(ids)`, written in the same
 * statement as the emails. Null when that path did not store it (the key exists, or a check needs
 * the full path): the caller then claims the key and calls sendEmails.
 */
export async function sendEmailsWithKey(
  deps: SendDeps,
  principal: Principal,
  inputs: SendEmailInput[],
  batch: boolean,
  completedKey: (ids: string[]) => CompletedKey,
): Promise<string[] | null> {
  return sendOptimistic(deps, principal, inputs, await checkInputs(deps, principal, inputs, batch), completedKey);
}

/** Sends each input; returns their ids in order. In a batch, field names are prefixed with `[i].`. */
export async function sendEmails(
  deps: SendDeps,
  principal: Principal,
  inputs: SendEmailInput[],
  batch: boolean,
): Promise<string[]> {
  const { db, clock } = deps;
  const teamId = principal.teamId;
  const checked = await checkInputs(deps, principal, inputs, batch);
  const optimistic = await sendOptimistic(deps, principal, inputs, checked);
  if (optimistic !== null) return optimistic;
  // One round trip for the team's plan, its verified domains among the from domains, and its
  // suppressions among the recipients.
  const question = {
    teamId,
    domainNames: [...new Set(checked.map((c) => c.fromDomain))],
    addresses: [...new Set(checked.flatMap((c) => c.recipients))],
  };
  const context = deps.batching
    ? await deps.batching.context.submit(question)
    : (await readSendContexts(db, [question]))[0]!;
  if (context.plan === null) throw new ApiError(404, 'NOT_FOUND', 'Team not found');
  // A reply must answer an email of the same team (another team's is as missing as an unknown id).
  const answered = await existingEmailIds(db, teamId, [
    ...new Set(inputs.flatMap((i) => (i.inReplyToId ? [i.inReplyToId] : []))),
  ]);

  const prepared: Prepared[] = [];
  for (const [index, input] of inputs.entries()) {
    const at = (field: string) => (batch ? `[${index}].${field}` : field);
    const { fromDomain, recipients } = checked[index]!;
    if (input.inReplyToId && !answered.has(input.inReplyToId))
      throw new ApiError(404, 'NOT_FOUND', `${at('inReplyToId')}: email not found`);
    const domainId = context.domains.get(fromDomain);
    if (domainId === undefined) throw badRequest(`${at('from')}: ${fromDomain} is not a verified domain of this team`);
    let template: TemplateForSend | null = null;
    if (input.templateId !== undefined) {
      template = (await getTemplateForSend(db, teamId, input.templateId)) ?? null;
      if (!template) throw new ApiError(404, 'NOT_FOUND', `${at('templateId')}: template not found`);
    }
    prepared.push({ input, domainId, recipients, ...partsOf(input, template) });
  }

  const now = clock.now();
  const { emails, wanted } = buildEmails(prepared, context, principal.keyId, now);
  const plan = context.plan;
  checkSendSize(plan, wanted);
  // Usually one statement, shared with concurrent sends: the reservation on one usage shard and the rows.
  const stored =
    (await storeFast(deps, teamId, plan, now, emails, wanted)) ||
    (await storeLocked(db, teamId, plan, now, emails, wanted));
  if (!stored) throw new Error(`the ${emails.length} emails of a send were not stored`);
  if (emails.some((e) => e.status === 'QUEUED')) deps.announcer.announce(EMAIL_DELIVERY_QUEUE);
  return emails.map((e) => e.id);
}

/** The fast path: false when the shard had no room or the plan needs the locked path. */
async function storeFast(
  deps: SendDeps,
  teamId: number,
  plan: TeamPlan,
  now: Date,
  emails: NewEmail[],
  wanted: Reservation,
): Promise<boolean> {
  const reservation = shardReservation(plan, now, wanted);
  if (reservation === undefined) return false;
  const job: StoreJob = { teamId, now, emails, reservation };
  return deps.batching ? deps.batching.store.submit(job) : (await storeEmailJobs(deps.db, [job]))[0]!;
}

/** The locked path: the day's usage locked and checked (429 over a limit), then the rows, in one transaction. */
async function storeLocked(
  db: Kysely<Database>,
  teamId: number,
  plan: TeamPlan,
  now: Date,
  emails: NewEmail[],
  wanted: Reservation,
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await reserveLocked(tx, teamId, plan, now, wanted);
    return (await storeEmailJobs(tx, [{ teamId, now, emails, reservation: null }]))[0]!;
  });
}

/** Recipient count, domain-limited keys: checks that need nothing from the database. */
function checkAddresses(input: SendEmailInput, index: number, batch: boolean, keyDomain: string | null) {
  const at = (field: string) => (batch ? `[${index}].${field}` : field);
  const recipients = distinctRecipients([input.to, input.cc, input.bcc]);
  if (recipients.length === 0) throw badRequest(`${at('to')}: at least one recipient is required in to, cc or bcc`);
  if (recipients.length > RECIPIENTS_MAX) {
    throw new ApiError(
      422,
      'UNPROCESSABLE_ENTITY',
      `${batch ? `[${index}]: ` : ''}${recipients.length} recipients across to, cc and bcc; at most ${RECIPIENTS_MAX} are allowed`,
    );
  }
  const fromDomain = domainOf(parseAddress(input.from)!.address);
  // Authentication 6: a key limited to one domain may send only from that domain.
  if (keyDomain !== null && fromDomain !== keyDomain.toLowerCase()) {
    throw new ApiError(403, 'FORBIDDEN', `${at('from')}: this key may send only from its domain ${keyDomain}`);
  }
  return { fromDomain, recipients };
}

/** The rows to store, with their first events, and the recipients they count (rule 3: suppressed ones do not). */
function buildEmails(
  prepared: Prepared[],
  context: SendContext,
  apiKeyId: string,
  now: Date,
): { emails: NewEmail[]; wanted: Reservation } {
  const emails: NewEmail[] = [];
  const counts: { type: TemplateType; recipients: number }[] = [];
  for (const { input, domainId, recipients, parts, type } of prepared) {
    const blocked = recipients.filter((r) => context.suppressed.has(r));
    // Whoever unsubscribed from the team's marketing gets no MARKETING mail (transactional mail still goes).
    const unsubscribed =
      type === 'MARKETING' ? recipients.filter((r) => context.unsubscribed.has(r) && !context.suppressed.has(r)) : [];
    const sendable = recipients.length - blocked.length - unsubscribed.length;
    counts.push({ type, recipients: sendable });
    const scheduledAt = input.scheduledAt === undefined ? null : new Date(input.scheduledAt);
    const future = scheduledAt !== null && scheduledAt.getTime() > now.getTime();
    const status: EmailStatus = sendable === 0 ? 'SUPPRESSED' : future ? 'SCHEDULED' : 'QUEUED';
    const events: NewEmail['events'] = [];
    if (blocked.length > 0) events.push({ status: 'SUPPRESSED', data: { recipients: blocked } });
    if (unsubscribed.length > 0)
      events.push({ status: 'SUPPRESSED', data: { recipients: unsubscribed, reason: 'unsubscribed' } });
    if (status !== 'SUPPRESSED')
      events.push({ status, data: future ? { scheduledAt: scheduledAt!.toISOString() } : null });
    emails.push({
      id: newId('em_', now),
      domainId,
      apiKeyId,
      from: input.from,
      to: input.to ?? null,
      cc: input.cc ?? null,
      bcc: input.bcc ?? null,
      replyTo: input.replyTo ?? null,
      subject: parts.subject,
      html: parts.html,
      text: parts.text,
      headers: input.headers ?? null,
      templateId: input.templateId ?? null,
      inReplyToId: input.inReplyToId ?? null,
      type,
      scheduledAt,
      status,
      runAt: future ? scheduledAt! : now,
      attachments: (input.attachments ?? []).map((a) => ({
        filename: a.filename,
        content: Buffer.from(a.content, 'base64'),
      })),
      recipients,
      events,
    });
  }
  return { emails, wanted: countByType(counts) };
}

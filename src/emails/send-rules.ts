// The rules of a send that need nothing but the request (and the key's domain): recipients, the
// 50-recipient rule, a domain-limited key's from domain; and how the stored rows are built from the
// inputs and what was read (suppressions, unsubscribes, templates), for queueEmails.
import type { Kysely, Transaction } from 'kysely';
import type { Database, EmailStatus, TemplateType } from '../db/schema.ts';
import { domainName } from '../domains/index.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError, badRequest } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { renderTemplate, type TemplateForSend, type TemplateParts } from '../templates/index.ts';
import { countByType, type Reservation } from './limits.ts';
import type { NewEmail, SendContext } from './queries.ts';
import { RECIPIENTS_MAX, distinctRecipients, domainOf, parseAddress } from './recipients.ts';
import type { SendEmailInput } from './schemas.ts';
import { isSimulated, simulatedKind } from './simulator.ts';
import { withUnsubscribePlaceholder } from './unsubscribe-link.ts';

export interface CheckedInput {
  /** Lower-cased. */
  fromDomain: string;
  /** Distinct lower-cased addresses across to, cc and bcc. */
  recipients: string[];
}

export interface PreparedInput extends CheckedInput {
  input: SendEmailInput;
  /** Null: the built-in domain (HERALD_MAIL_DOMAIN), which has no row. */
  domainId: number | null;
  parts: TemplateParts;
  type: TemplateType;
}

/** Field names in a batch are prefixed with `[i].`. */
export const fieldOf = (batch: boolean, index: number) => (field: string) => (batch ? `[${index}].${field}` : field);

/** The checks that need nothing from the database but the key's domain (400/403/422 before anything else). */
export async function checkInputs(
  db: Kysely<Database> | Transaction<Database>,
  principal: Principal,
  inputs: SendEmailInput[],
  batch: boolean,
): Promise<CheckedInput[]> {
  const keyDomain =
    principal.domainId === null ? null : ((await domainName(db, principal.teamId, principal.domainId)) ?? '');
  return inputs.map((input, index) => checkAddresses(input, index, batch, keyDomain));
}

/** Recipient count, domain-limited keys. */
function checkAddresses(input: SendEmailInput, index: number, batch: boolean, keyDomain: string | null): CheckedInput {
  const at = fieldOf(batch, index);
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

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The preview text a template supplies, as the usual hidden preheader at the top of the body. */
export function withPreheader(html: string | null, previewText: string | null): string | null {
  if (html === null || !previewText) return html;
  return `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeHtml(previewText)}</div>${html}`;
}

/** Subject and bodies as sent: the template's (subject unless given, preview text, type, HTML), variables filled. */
export function partsOf(
  input: SendEmailInput,
  template: TemplateForSend | null,
  marketing = false,
): { parts: TemplateParts; type: TemplateType } {
  let parts: TemplateParts = { subject: input.subject ?? '', html: input.html ?? null, text: input.text ?? null };
  const type: TemplateType = marketing ? 'MARKETING' : (template?.type ?? 'TRANSACTIONAL');
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

/** The rows to store, with their first events, and the recipients they count (rule 3: suppressed ones do not). */
export function buildEmails(
  prepared: PreparedInput[],
  context: SendContext,
  apiKeyId: string,
  now: Date,
  origin: { campaignId: string | null; bulk: boolean } = { campaignId: null, bulk: false },
): { emails: NewEmail[]; wanted: Reservation } {
  const { campaignId, bulk } = origin;
  const emails: NewEmail[] = [];
  const counts: { type: TemplateType; recipients: number }[] = [];
  for (const { input, domainId, recipients, parts, type } of prepared) {
    const blocked = recipients.filter((r) => context.suppressed.has(r));
    // Whoever unsubscribed from the team's marketing gets no MARKETING mail (transactional mail still goes).
    const unsubscribed =
      type === 'MARKETING' ? recipients.filter((r) => context.unsubscribed.has(r) && !context.suppressed.has(r)) : [];
    const simulatedSuppressed = recipients.filter(
      (r) => simulatedKind(r) === 'suppressed' && !blocked.includes(r) && !unsubscribed.includes(r),
    );
    const sendableTo = recipients.filter(
      (r) => !blocked.includes(r) && !unsubscribed.includes(r) && !simulatedSuppressed.includes(r),
    );
    const sendable = sendableTo.length;
    // The simulator's addresses count against no quota.
    counts.push({ type, recipients: sendableTo.filter((r) => !isSimulated(r)).length });
    const scheduledAt = input.scheduledAt === undefined ? null : new Date(input.scheduledAt);
    const future = scheduledAt !== null && scheduledAt.getTime() > now.getTime();
    const status: EmailStatus = sendable === 0 ? 'SUPPRESSED' : future ? 'SCHEDULED' : 'QUEUED';
    const events: NewEmail['events'] = [];
    if (blocked.length > 0) events.push({ status: 'SUPPRESSED', data: { recipients: blocked } });
    if (unsubscribed.length > 0)
      events.push({ status: 'SUPPRESSED', data: { recipients: unsubscribed, reason: 'unsubscribed' } });
    if (simulatedSuppressed.length > 0)
      events.push({ status: 'SUPPRESSED', data: { recipients: simulatedSuppressed, reason: 'simulated' } });
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
      // Bulk mail says so (RFC 2076): auto-responders then stay quiet.
      headers: campaignId === null ? (input.headers ?? null) : { ...input.headers, Precedence: 'bulk' },
      templateId: input.templateId ?? null,
      campaignId,
      bulk,
      simulated: recipients.every(isSimulated),
      inReplyToId: input.inReplyToId ?? null,
      type,
      scheduledAt,
      status,
      runAt: future ? scheduledAt! : now,
      attachments: (input.attachments ?? []).map((a) => ({
        filename: a.filename,
        content: Buffer.from(a.content, 'base64'),
        contentId: a.contentId ?? null,
      })),
      recipients,
      events,
    });
  }
  return { emails, wanted: countByType(counts) };
}

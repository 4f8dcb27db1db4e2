// POST /v1/emails and /v1/emails/batch: every check runs before anything is stored (contract rule 1),
// then one transaction reserves the send quota, stores the emails with their first events and
// announces the queued ones to the delivery workers.
import type { Kysely } from 'kysely';
import type { Database, EmailStatus, TemplateType } from '../db/schema.ts';
import { domainName, getSendingDomain } from '../domains/index.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { ApiError, badRequest } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { notifyQueue } from '../queue/index.ts';
import { getTemplateForSend, renderTemplate, type TemplateParts } from '../templates/index.ts';
import { countByType, reserveSendQuota } from './limits.ts';
import { insertEmails, suppressedAmong, teamPlan, type NewEmail } from './queries.ts';
import { RECIPIENTS_MAX, distinctRecipients, domainOf, parseAddress } from './recipients.ts';
import type { SendEmailInput } from './schemas.ts';

/** The queue the delivery worker claims emails from. */
export const EMAIL_DELIVERY_QUEUE = 'email-delivery';

export interface SendDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
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

/** Sends each input; returns their ids in order. `where` prefixes field names in a batch. */
export async function sendEmails(deps: SendDeps, principal: Principal, inputs: SendEmailInput[], batch: boolean): Promise<string[]> {
  const { db, clock, secrets } = deps;
  const teamId = principal.teamId;
  const keyDomain = principal.domainId === null ? null : ((await domainName(db, teamId, principal.domainId)) ?? '');
  const domains = new Map<string, number | null>();
  const prepared: Prepared[] = [];

  for (const [index, input] of inputs.entries()) {
    const at = (field: string) => (batch ? `[${index}].${field}` : field);
    const recipients = distinctRecipients([input.to, input.cc, input.bcc]);
    if (recipients.length === 0) throw badRequest(`${at('to')}: at least one recipient is required in to, cc or bcc`);
    if (recipients.length > RECIPIENTS_MAX) {
      throw new ApiError(422, 'UNPROCESSABLE_ENTITY', `${batch ? `[${index}]: ` : ''}${recipients.length} recipients across to, cc and bcc; at most ${RECIPIENTS_MAX} are allowed`);
    }
    const fromDomain = domainOf(parseAddress(input.from)!.address);
    // Authentication 6: a key limited to one domain may send only from that domain.
    if (keyDomain !== null && fromDomain !== keyDomain.toLowerCase()) {
      throw new ApiError(403, 'FORBIDDEN', `${at('from')}: this key may send only from its domain ${keyDomain}`);
    }
    if (!domains.has(fromDomain)) domains.set(fromDomain, (await getSendingDomain(db, secrets, teamId, fromDomain))?.id ?? null);
    const domainId = domains.get(fromDomain) ?? null;
    if (domainId === null) throw badRequest(`${at('from')}: ${fromDomain} is not a verified domain of this team`);

    let parts: TemplateParts = { subject: input.subject ?? '', html: input.html ?? null, text: input.text ?? null };
    let type: TemplateType = 'TRANSACTIONAL';
    if (input.templateId !== undefined) {
      const template = await getTemplateForSend(db, teamId, input.templateId);
      if (!template) throw new ApiError(404, 'NOT_FOUND', `${at('templateId')}: template not found`);
      // The template supplies subject (unless one is given), preview text, type and the HTML body.
      parts = { subject: input.subject ?? template.subject, html: withPreheader(template.html, template.previewText), text: input.text ?? null };
      type = template.type;
    }
    if (input.templateId !== undefined || input.variables !== undefined) parts = renderTemplate(parts, input.variables ?? {});
    prepared.push({ input, domainId, recipients, parts, type });
  }

  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const plan = await teamPlan(tx, teamId);
    if (!plan) throw new ApiError(404, 'NOT_FOUND', 'Team not found');
    const suppressed = await suppressedAmong(tx, teamId, [...new Set(prepared.flatMap((p) => p.recipients))]);
    const emails: NewEmail[] = [];
    const counts: { type: TemplateType; recipients: number }[] = [];
    for (const { input, domainId, recipients, parts, type } of prepared) {
      const blocked = recipients.filter((r) => suppressed.has(r));
      const sendable = recipients.length - blocked.length;
      counts.push({ type, recipients: sendable });
      const scheduledAt = input.scheduledAt === undefined ? null : new Date(input.scheduledAt);
      const future = scheduledAt !== null && scheduledAt.getTime() > now.getTime();
      const status: EmailStatus = sendable === 0 ? 'SUPPRESSED' : future ? 'SCHEDULED' : 'QUEUED';
      const events: NewEmail['events'] = [];
      // Rule 3: suppressed recipients are not sent to and not counted.
      if (blocked.length > 0) events.push({ status: 'SUPPRESSED', data: { recipients: blocked } });
      if (status !== 'SUPPRESSED') events.push({ status, data: future ? { scheduledAt: scheduledAt!.toISOString() } : null });
      emails.push({
        id: newId('em_', now),
        domainId,
        apiKeyId: principal.keyId,
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
        attachments: (input.attachments ?? []).map((a) => ({ filename: a.filename, content: Buffer.from(a.content, 'base64') })),
        recipients,
        events,
      });
    }
    await insertEmails(tx, teamId, emails, now);
    if (emails.some((e) => e.status === 'QUEUED')) await notifyQueue(tx, EMAIL_DELIVERY_QUEUE);
    // Last before commit: the reservation locks the team's row for today until commit, and every
    // send of the team waits on it, so it is held as briefly as possible. Over the limit it throws
    // and the whole transaction, emails included, rolls back.
    await reserveSendQuota(tx, teamId, plan, now, countByType(counts));
    return emails.map((e) => e.id);
  });
}

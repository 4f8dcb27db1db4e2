// What a campaign's fields name must exist for the team (400 naming the field): the from address on
// a verified domain (a key limited to a domain: that one, else 403), the contact book, the segment
// (of that book), the template, well-formed reply-to, cc and bcc addresses. At schedule time the
// body must link to the unsubscribe URL (issue: unsubscribe is mandatory).
import type { Kysely } from 'kysely';
import { bookFacts } from '../contacts/index.ts';
import type { Database } from '../db/schema.ts';
import { sendingDomainId } from '../domains/index.ts';
import { domainOf, parseAddress } from '../emails/index.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError, badRequest } from '../platform/errors.ts';
import { bookOfSegment } from '../segments/index.ts';
import { getTemplateForSend } from '../templates/index.ts';
import { renderCampaignContent } from './content.ts';
import type { CampaignRow } from './queries.ts';
import { HTML_MAX } from './schemas.ts';

/** The fields a check reads, as they will be stored. */
export interface CampaignFields {
  from: string;
  contactBookId: string;
  segmentId: string | null;
  templateId: string | null;
  replyTo: string[];
  cc: string[];
  bcc: string[];
}

/** An address or a list of them, as stored: always a list. */
export function addressList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The checks of create and change; answers the verified domain of `from`. */
export async function checkFields(db: Kysely<Database>, principal: Principal, fields: CampaignFields): Promise<number> {
  const { teamId } = principal;
  const from = parseAddress(fields.from);
  if (from === null) throw badRequest('from: must be an email address, or `Name <address>`');
  const domain = domainOf(from.address);
  const domainId = await sendingDomainId(db, teamId, domain);
  if (domainId === undefined) throw badRequest(`from: ${domain} is not a verified sending domain of the team`);
  if (principal.domainId !== null && principal.domainId !== domainId)
    throw new ApiError(403, 'FORBIDDEN', `from: this key may send only from its own domain, not ${domain}`);
  for (const field of ['replyTo', 'cc', 'bcc'] as const) {
    for (const [i, address] of fields[field].entries()) {
      const parsed = parseAddress(address);
      if (parsed === null || parsed.address === '') throw badRequest(`${field}[${i}]: must be an email address`);
    }
  }
  if (!(await bookFacts(db, teamId, fields.contactBookId)))
    throw badRequest(`contactBookId: the team has no contact book ${fields.contactBookId}`);
  if (fields.segmentId !== null) {
    const book = await bookOfSegment(db, teamId, fields.segmentId);
    if (book === undefined) throw badRequest(`segmentId: the team has no segment ${fields.segmentId}`);
    if (book !== fields.contactBookId)
      throw badRequest(
        `segmentId: segment ${fields.segmentId} is not a segment of contact book ${fields.contactBookId}`,
      );
  }
  if (fields.templateId !== null && !(await getTemplateForSend(db, teamId, fields.templateId)))
    throw badRequest(`templateId: the team has no template ${fields.templateId}`);
  return domainId;
}

/** The body as stored: html (given, or rendered from content), or a template. */
export interface CampaignBody {
  html: string | null;
  content: string | null;
  templateId: string | null;
}

const BODY_FIELDS = ['html', 'content', 'templateId'] as const;

/**
 * The body a create or change gives: one of html, content (useSend's editor document, rendered to
 * html here, 400 naming what it cannot render) or templateId, which replaces the others; none
 * keeps the current body.
 */
export async function bodyOf(
  input: Partial<Record<(typeof BODY_FIELDS)[number], string>>,
  current: CampaignBody,
): Promise<CampaignBody> {
  const given = BODY_FIELDS.filter((field) => input[field] !== undefined);
  if (given.length > 1)
    throw badRequest(`${given[1]}: give the body as one of html, content or templateId (${given.join(' and ')} given)`);
  if (input.content !== undefined) {
    const html = await renderCampaignContent(input.content);
    // Styles inlined into every element make the html several times the document's size.
    if (html.length > HTML_MAX)
      throw badRequest(
        `content: renders to ${html.length.toLocaleString('en-US')} characters of html, over the ${HTML_MAX.toLocaleString('en-US')} a campaign body may have`,
      );
    return { html, content: input.content, templateId: null };
  }
  if (input.html !== undefined) return { html: input.html, content: null, templateId: null };
  if (input.templateId !== undefined) return { html: null, content: null, templateId: input.templateId };
  return current;
}

/** useSend's names for the unsubscribe link are accepted beside Herald's own. */
const UNSUBSCRIBE_PLACEHOLDER = /\{\{\s*(unsubscribeUrl|usesend_unsubscribe_url|unsend_unsubscribe_url)\s*\}\}/;

/** Before a campaign is scheduled: a body, and in it the unsubscribe link. */
export async function checkSchedulable(db: Kysely<Database>, campaign: CampaignRow): Promise<void> {
  let body = campaign.html;
  if (campaign.template_id !== null)
    body = (await getTemplateForSend(db, campaign.team_id, campaign.template_id))?.html ?? null;
  if (body === null)
    throw badRequest('html: a campaign needs a body (html, content or templateId) before it is scheduled');
  if (!UNSUBSCRIBE_PLACEHOLDER.test(body))
    throw badRequest('html: a campaign must include an unsubscribe link ({{unsubscribeUrl}})');
}

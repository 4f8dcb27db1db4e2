// A campaign's email to one recipient, as queueEmails takes it: the campaign's from, subject and
// body (its html with the preview text as the hidden preheader, or its template), reply-to, cc and
// bcc, and the recipient's variables as templates and journeys give them.
import { withPreheader } from '../emails/index.ts';
import type { CampaignRow } from './queries.ts';

/** useSend's names for the unsubscribe link become Herald's, which delivery fills per recipient. */
const bodyOf = (html: string | null) =>
  html?.replace(/\{\{\s*(usesend_unsubscribe_url|unsend_unsubscribe_url)\s*\}\}/g, '{{unsubscribeUrl}}') ?? null;

export interface Addressee {
  email: string;
  first_name: string | null;
  last_name: string | null;
  properties: Record<string, string>;
}

/** The email to `to`; `subject` replaces the campaign's (a test copy's). */
export function campaignEmail(
  campaign: CampaignRow,
  to: Addressee,
  extra: { subject?: string; headers?: Record<string, string> } = {},
) {
  return {
    from: campaign.from,
    to: to.email,
    subject: extra.subject ?? campaign.subject,
    // A template's own preheader comes with the template.
    ...(campaign.template_id === null
      ? { html: withPreheader(bodyOf(campaign.html), campaign.preview_text)! }
      : { templateId: campaign.template_id }),
    ...(campaign.reply_to.length > 0 && { replyTo: campaign.reply_to }),
    ...(campaign.cc.length > 0 && { cc: campaign.cc }),
    ...(campaign.bcc.length > 0 && { bcc: campaign.bcc }),
    ...(extra.headers && { headers: extra.headers }),
    variables: { ...to.properties, email: to.email, firstName: to.first_name ?? '', lastName: to.last_name ?? '' },
  };
}

// MARKETING mail links each recipient to their own unsubscribe page. The body is rendered once, at
// send time, before anyone knows which copy goes to whom: `{{unsubscribeUrl}}` is filled there with
// a placeholder URL (unless the caller supplied the variable), and delivery, which sends every
// recipient of a MARKETING email a copy of their own, puts that recipient's signed link in its place
// and in the List-Unsubscribe header (RFC 8058 one-click).
import { emailUnsubscribeUrl } from '../platform/unsubscribe-links.ts';
import type { Secrets } from '../platform/crypto.ts';
import { escapeHtml } from '../platform/escape-html.ts';
import { UNSUBSCRIBE_VARIABLE } from '../templates/index.ts';
import type { EmailRow } from './queries.ts';

/** An address that cannot exist (.invalid, RFC 2606) and passes the template link rule (https). */
export const UNSUBSCRIBE_PLACEHOLDER = 'https://unsubscribe.herald.invalid/link';

/** The variables a MARKETING email is rendered with: the placeholder unless the caller set the link. */
export function withUnsubscribePlaceholder(variables: Readonly<Record<string, string>>): Record<string, string> {
  return Object.hasOwn(variables, UNSUBSCRIBE_VARIABLE)
    ? { ...variables }
    : { ...variables, [UNSUBSCRIBE_VARIABLE]: UNSUBSCRIBE_PLACEHOLDER };
}

interface RecipientLink {
  secrets: Secrets;
  publicUrl: string;
}

export function unsubscribeUrlFor(
  deps: RecipientLink,
  email: Pick<EmailRow, 'team_id' | 'id'>,
  recipient: string,
): string {
  return emailUnsubscribeUrl(deps.secrets, deps.publicUrl, { teamId: email.team_id, emailId: email.id, recipient });
}

/** The email's body with the placeholder replaced by one recipient's link. */
export function fillUnsubscribeLink<T extends Pick<EmailRow, 'html' | 'text'>>(email: T, url: string): T {
  return {
    ...email,
    html: email.html === null ? null : email.html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, escapeHtml(url)),
    text: email.text === null ? null : email.text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, url),
  };
}

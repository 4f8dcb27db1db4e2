// Contract (Template): a marketing template carries an unsubscribe footer and is required to. The
// footer links to `{{unsubscribeUrl}}`, which the sending capability fills for each recipient.
import { documentLinks, type EditorBlock, type EditorDocument } from './editor-document.ts';
import { singleVariableName } from './variables.ts';

export const UNSUBSCRIBE_VARIABLE = 'unsubscribeUrl';

const FOOTER_TEXT = 'You are receiving this email because you subscribed to it. ';
const FOOTER_LINK_TEXT = 'Unsubscribe';

const FOOTER_BLOCKS: readonly EditorBlock[] = [
  { type: 'spacer', height: 16 },
  { type: 'divider' },
  {
    type: 'paragraph',
    size: 'small',
    align: 'center',
    content: [FOOTER_TEXT, { text: FOOTER_LINK_TEXT, href: `{{${UNSUBSCRIBE_VARIABLE}}}` }],
  },
];

/** The body of a marketing template created without one: nothing but the footer. */
export function defaultMarketingDocument(): EditorDocument {
  return { version: 1, blocks: [...FOOTER_BLOCKS] };
}

function documentHasUnsubscribeLink(document: EditorDocument): boolean {
  return documentLinks(document).some((href) => singleVariableName(href) === UNSUBSCRIBE_VARIABLE);
}

/** The document itself when it links to `{{unsubscribeUrl}}`, else the document with the footer. */
export function withDocumentFooter(document: EditorDocument): EditorDocument {
  return documentHasUnsubscribeLink(document)
    ? document
    : { ...document, blocks: [...document.blocks, ...FOOTER_BLOCKS] };
}

// An <a> whose href is exactly the unsubscribe variable (any quoting, blanks inside the braces).
const UNSUBSCRIBE_ANCHOR = new RegExp(
  `<a\\s[^>]*\\bhref\\s*=\\s*["']?\\s*\\{\\{\\s*${UNSUBSCRIBE_VARIABLE}\\s*\\}\\}\\s*["'\\s>]`,
  'i',
);

export function htmlHasUnsubscribeLink(html: string): boolean {
  return UNSUBSCRIBE_ANCHOR.test(html);
}

// Inline styles only: the footer is added to sanitised HTML that may have no stylesheet at all.
const FOOTER_HTML =
  '<table role="presentation" cellpadding="0" cellspacing="0" border="0" width="100%" style="margin-top: 24px;">' +
  '<tr><td align="center" style="padding: 16px 24px; border-top: 1px solid #e5e7eb; font-family: Arial, Helvetica, sans-serif; ' +
  'font-size: 12px; line-height: 18px; color: #6b7280; text-align: center;">' +
  `${FOOTER_TEXT}<a href="{{${UNSUBSCRIBE_VARIABLE}}}" style="color: #6b7280; text-decoration: underline;">${FOOTER_LINK_TEXT}</a>` +
  '</td></tr></table>';

/** The HTML itself when it links to `{{unsubscribeUrl}}`, else the HTML with the footer before `</body>` (or at the end). */
export function withHtmlFooter(html: string): string {
  if (htmlHasUnsubscribeLink(html)) return html;
  const bodyEnd = html.search(/<\/body\s*>/i);
  return bodyEnd === -1 ? html + FOOTER_HTML : html.slice(0, bodyEnd) + FOOTER_HTML + html.slice(bodyEnd);
}

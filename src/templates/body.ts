// What a template stores as its body: the editor document (content) and the HTML that is sent.
// content xor html; HTML is sanitised; a marketing body always links to {{unsubscribeUrl}}.
import type { TemplateType } from '../db/schema.ts';
import { badRequest } from '../platform/errors.ts';
import { parseEditorDocument } from './editor-document.ts';
import {
  defaultMarketingDocument,
  htmlHasUnsubscribeLink,
  withDocumentFooter,
  withHtmlFooter,
} from './marketing-footer.ts';
import { renderDocument } from './render.ts';
import { sanitizeTemplateHtml } from './sanitize.ts';

interface TemplateBody {
  /** The editor document as JSON text; null for a body given as HTML. */
  content: string | null;
  html: string | null;
}

interface BodyInput {
  content?: string | undefined;
  html?: string | undefined;
}

export function bodyGiven(input: BodyInput): boolean {
  return input.content !== undefined || input.html !== undefined;
}

/** The stored body for a body sent in a request (create, or update with content or html). */
export async function bodyFromInput(type: TemplateType, input: BodyInput): Promise<TemplateBody> {
  if (input.content !== undefined) {
    const parsed = parseEditorDocument(input.content);
    const document = type === 'MARKETING' ? withDocumentFooter(parsed) : parsed;
    // Stored as validated and re-serialised: compact, and with the footer when one was added.
    return { content: JSON.stringify(document), html: await renderDocument(document) };
  }
  if (input.html !== undefined) {
    const clean = await sanitizeTemplateHtml(input.html);
    if (clean === '')
      throw badRequest(
        'html: nothing is left after sanitising (scripts, styles, forms, frames and comments are removed)',
      );
    return { content: null, html: type === 'MARKETING' ? withHtmlFooter(clean) : clean };
  }
  // Contract: a marketing template created with no body gets the default marketing body.
  if (type === 'MARKETING') {
    const document = defaultMarketingDocument();
    return { content: JSON.stringify(document), html: await renderDocument(document) };
  }
  return { content: null, html: null };
}

/**
 * An update that makes a template MARKETING without sending a body: the stored body is not
 * rewritten (contract), so it must already link to {{unsubscribeUrl}}.
 */
export function assertBodyFitsMarketing(stored: TemplateBody): void {
  if (stored.html === null || !htmlHasUnsubscribeLink(stored.html)) {
    throw badRequest(
      'type: a MARKETING template must carry an unsubscribe link to {{unsubscribeUrl}} and the stored body has none; ' +
        'send content or html with the type change and the unsubscribe footer is added',
    );
  }
}

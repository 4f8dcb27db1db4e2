// The confirmation email of a double opt-in book: its doubleOptInSubject and doubleOptInContent (an
// editor document, rendered as templates are) with the contact's variables filled:
//
//   firstName, lastName, email   the contact's ('' when unset)
//   confirmUrl                   the signed confirmation link, valid for 7 days
//   unsubscribeUrl               the contact's signed unsubscribe link
//   any property of the contact  by its key (the variables above win on a clash)
//
// A document that links nowhere to {{confirmUrl}} gets a confirm button appended, so that every
// confirmation email can be confirmed. Without a subject or content the defaults below are used.
import { parseEditorDocument, renderDocument, type EditorBlock, type EditorDocument } from '../templates/index.ts';
import { renderTemplate } from '../templates/index.ts';
import type { ConfirmationBook, ContactRow } from './double-opt-in-queries.ts';

const DEFAULT_CONFIRMATION_SUBJECT = 'Please confirm your subscription';

const CONFIRM_BUTTON: EditorBlock = {
  type: 'button',
  label: 'Confirm subscription',
  href: '{{confirmUrl}}',
  align: 'center',
};

const DEFAULT_CONFIRMATION_DOCUMENT: EditorDocument = {
  version: 1,
  blocks: [
    { type: 'heading', level: 2, text: 'Confirm your subscription' },
    { type: 'paragraph', content: ['Please confirm that you want to receive our emails at {{email}}.'] },
    CONFIRM_BUTTON,
    {
      type: 'paragraph',
      size: 'small',
      content: ['If you did not ask for this, ignore this email and you will not hear from us again.'],
    },
  ],
};

const CONFIRM_LINK = /^\s*\{\{\s*confirmUrl\s*\}\}\s*$/;

function linksToConfirm(document: EditorDocument): boolean {
  return document.blocks.some((block) => {
    if (block.type === 'button' || block.type === 'link') return CONFIRM_LINK.test(block.href);
    if (block.type === 'image') return block.href !== undefined && CONFIRM_LINK.test(block.href);
    if (block.type === 'paragraph')
      return block.content.some(
        (run) => typeof run !== 'string' && run.href !== undefined && CONFIRM_LINK.test(run.href),
      );
    return false;
  });
}

interface ConfirmationLinks {
  confirmUrl: string;
  unsubscribeUrl: string;
}

/** Subject and HTML, variables filled. Throws ApiError (400) when the stored content is not a valid document. */
export async function confirmationEmail(
  book: ConfirmationBook,
  contact: ContactRow,
  links: ConfirmationLinks,
): Promise<{ subject: string; html: string }> {
  const stored = book.double_opt_in_content;
  const parsed = stored === null || stored.trim() === '' ? DEFAULT_CONFIRMATION_DOCUMENT : parseEditorDocument(stored);
  const document = linksToConfirm(parsed) ? parsed : { ...parsed, blocks: [...parsed.blocks, CONFIRM_BUTTON] };
  const subject = book.double_opt_in_subject?.trim() ? book.double_opt_in_subject : DEFAULT_CONFIRMATION_SUBJECT;
  const variables = {
    ...contact.properties,
    firstName: contact.first_name ?? '',
    lastName: contact.last_name ?? '',
    email: contact.email,
    confirmUrl: links.confirmUrl,
    unsubscribeUrl: links.unsubscribeUrl,
  };
  const rendered = renderTemplate({ subject, html: await renderDocument(document), text: null }, variables);
  return { subject: rendered.subject, html: rendered.html! };
}

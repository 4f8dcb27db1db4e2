// Request and response schemas of /v1/templates (contract: Template, Templates).
import { z } from 'zod';
import { limitParam, pageParam } from '../platform/pagination.ts';

/** Contract Limits: name 200, previewText 255; subject 998 as for sending; bodies 2,000,000 as html and text. */
export const NAME_MAX = 200;
export const SUBJECT_MAX = 998;
const PREVIEW_TEXT_MAX = 255;
export const BODY_MAX = 2_000_000;
export const LIST_LIMIT_MAX = 100;
export const LIST_PAGE_MAX = 10_000;

export const TemplateType = z.enum(['TRANSACTIONAL', 'MARKETING']);

const contentDescription =
  'The editor document as JSON text (see docs/templates.md): `{"version": 1, "blocks": [...]}`. ' +
  'Blocks: `heading` {level 1-3, text}, `paragraph` {content: runs; a run is a string or ' +
  '{text, bold?, italic?, href?}; size? normal|small}, `link` {text, href}, `button` {label, href, ' +
  'backgroundColor?, textColor? as #rgb/#rrggbb}, `image` {src (https), alt, width? 1-552, href?}, ' +
  '`divider` {color?}, `spacer` {height? 4-200}; heading, paragraph, link, button and image take ' +
  'align? left|center|right. Texts and links may use `{{variables}}`. A link is an http(s), mailto or ' +
  'tel URL, or begins with a `{{variable}}` whose value must be such a URL when sent (else the link ' +
  'becomes `#`). At most 1,000 blocks and 5,000 paragraph runs. Rendered to table-based HTML with inline styles into `html`. ' +
  'A bad document answers 400 naming its path, e.g. `content.blocks[2].href`. Give content or html, not both.';

const htmlDescription =
  'An HTML body. Sanitised on the way in: script, style (its rules are inlined first), iframe, object, ' +
  'form and comments are removed, as are event handlers and URLs other than http(s), mailto and tel ' +
  '(images may also use cid:). Give content or html, not both.';

const Subject = z
  .string()
  .min(1)
  .max(SUBJECT_MAX)
  .regex(/^[^\r\n]*$/, 'must be one line')
  .describe('May contain `{{variables}}`; at most 998 characters, one line');

const fields = {
  name: z.string().trim().min(1).max(NAME_MAX),
  subject: Subject,
  previewText: z.string().max(PREVIEW_TEXT_MAX).nullable(),
  content: z.string().min(1).max(BODY_MAX).describe(contentDescription),
  html: z.string().min(1).max(BODY_MAX).describe(htmlDescription),
};

type BodyFields = { content?: string | undefined; html?: string | undefined };

// Contract: give content or html, one or the other, not both.
function oneBodyOnly(body: BodyFields, ctx: z.RefinementCtx): void {
  if (body.content !== undefined && body.html !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['content'], message: 'give content or html, not both (html was also sent)' });
  }
}

export const CreateTemplateBody = z
  .object({
    name: fields.name,
    subject: fields.subject,
    type: TemplateType.default('TRANSACTIONAL'),
    previewText: fields.previewText.optional(),
    content: fields.content.optional(),
    html: fields.html.optional(),
  })
  .superRefine(oneBodyOnly);

export const UpdateTemplateBody = z
  .object({
    name: fields.name.optional(),
    subject: fields.subject.optional(),
    type: TemplateType.optional(),
    previewText: fields.previewText.optional(),
    content: fields.content.optional(),
    html: fields.html.optional(),
  })
  .superRefine(oneBodyOnly);

export const TemplateParams = z.object({ templateId: z.string().min(1).max(100) });

export const ListTemplatesQuery = z.object({
  page: pageParam(LIST_PAGE_MAX),
  limit: limitParam(LIST_LIMIT_MAX, 50),
});

export const Template = z.object({
  id: z.string(),
  name: z.string(),
  subject: z.string(),
  type: TemplateType,
  previewText: z.string().nullable(),
  content: z.string().nullable().describe('The editor document as JSON text; null for a template created from HTML'),
  html: z
    .string()
    .nullable()
    .describe('The rendered, sanitised body that is sent; null for a transactional template without a body'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const DeletedTemplate = z.object({ id: z.string(), success: z.boolean(), message: z.string() });

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

// The editor document a template's `content` holds: a small, versioned list of blocks, validated
// with zod. docs/templates.md is the reference; keep the two together.
import { z } from 'zod';
import { badRequest } from '../platform/errors.ts';
import { isSafeLinkUrl, leadingVariableName, VARIABLE_PATTERN } from './variables.ts';

const DOCUMENT_VERSION = 1;
const MAX_BLOCKS = 1000;
const MAX_RUNS = 500;
/** Across the whole document: bounds the rendering work (juice's cost grows with the elements). */
const MAX_RUNS_TOTAL = 5000;
const MAX_TEXT = 10_000;
export const MAX_URL = 2048;
/** The content column is 600 px wide; blocks have 24 px of padding either side. */
export const CONTENT_WIDTH = 552;

const LITERAL_LINK_SCHEME = /^(?:https?:\/\/|mailto:|tel:)/i;
// eslint-disable-next-line no-control-regex
const BLANK_OR_CONTROL = /[\s\u0000-\u001f\u007f]/;

const withoutVariables = (url: string) => url.replace(VARIABLE_PATTERN, 'x');

/**
 * A link: an http(s), mailto or tel URL whose scheme is written out (variables may follow it), or a
 * URL that begins with a variable, filled at send time only when that variable's value is itself an
 * http(s), mailto or tel URL (contract rule 4). No javascript:, data: or relative links.
 */
export function linkProblem(url: string): string | null {
  if (BLANK_OR_CONTROL.test(url.replace(VARIABLE_PATTERN, '')))
    return 'must not contain blanks or control characters (encode them, e.g. %20)';
  if (leadingVariableName(url) !== null) return null;
  if (LITERAL_LINK_SCHEME.test(url) && isSafeLinkUrl(withoutVariables(url))) return null;
  return 'must be an http(s)://, mailto: or tel: URL, or begin with a {{variable}}';
}

export function imageSourceProblem(url: string): string | null {
  if (BLANK_OR_CONTROL.test(url.replace(VARIABLE_PATTERN, '')))
    return 'must not contain blanks or control characters (encode them, e.g. %20)';
  if (/^https:\/\//i.test(url) && isSafeLinkUrl(withoutVariables(url))) return null;
  return 'must be an https:// URL (variables may follow the host part)';
}

const urlWith = (problem: (url: string) => string | null) =>
  z
    .string()
    .min(1)
    .max(MAX_URL)
    .superRefine((url, ctx) => {
      const message = problem(url);
      if (message !== null) ctx.addIssue({ code: 'custom', message });
    });

const Link = urlWith(linkProblem);
const ImageSource = urlWith(imageSourceProblem);
const Colour = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'must be a colour like #1a2b3c');
const Align = z.enum(['left', 'center', 'right']);
const Text = (max: number) => z.string().min(1).max(max);

const TextRun = z.union([
  Text(MAX_TEXT),
  z.strictObject({
    text: Text(MAX_TEXT),
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    href: Link.optional(),
  }),
]);

const HeadingBlock = z.strictObject({
  type: z.literal('heading'),
  level: z.literal([1, 2, 3]),
  text: Text(1000),
  align: Align.optional(),
});

const ParagraphBlock = z.strictObject({
  type: z.literal('paragraph'),
  content: z.array(TextRun).min(1).max(MAX_RUNS),
  align: Align.optional(),
  size: z.enum(['normal', 'small']).optional(),
});

const LinkBlock = z.strictObject({ type: z.literal('link'), text: Text(1000), href: Link, align: Align.optional() });

const ButtonBlock = z.strictObject({
  type: z.literal('button'),
  label: Text(200),
  href: Link,
  backgroundColor: Colour.optional(),
  textColor: Colour.optional(),
  align: Align.optional(),
});

const ImageBlock = z.strictObject({
  type: z.literal('image'),
  src: ImageSource,
  alt: z.string().max(1000),
  width: z.number().int().min(1).max(CONTENT_WIDTH).optional(),
  href: Link.optional(),
  align: Align.optional(),
});

const DividerBlock = z.strictObject({ type: z.literal('divider'), color: Colour.optional() });
const SpacerBlock = z.strictObject({ type: z.literal('spacer'), height: z.number().int().min(4).max(200).optional() });

const Block = z.discriminatedUnion('type', [
  HeadingBlock,
  ParagraphBlock,
  LinkBlock,
  ButtonBlock,
  ImageBlock,
  DividerBlock,
  SpacerBlock,
]);

export const EditorDocument = z.strictObject({
  version: z.literal(DOCUMENT_VERSION),
  blocks: z
    .array(Block)
    .max(MAX_BLOCKS)
    .superRefine((blocks, ctx) => {
      const runs = blocks.reduce((sum, block) => sum + (block.type === 'paragraph' ? block.content.length : 0), 0);
      if (runs > MAX_RUNS_TOTAL)
        ctx.addIssue({
          code: 'custom',
          message: `at most ${MAX_RUNS_TOTAL} paragraph runs in a document (${runs} given)`,
        });
    }),
});

export type EditorDocument = z.infer<typeof EditorDocument>;
export type EditorBlock = z.infer<typeof Block>;
export type TextRun = z.infer<typeof TextRun>;

/** `content.blocks[2].content[0].href` */
function describePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`),
    'content',
  );
}

/** Parses and validates `content`; 400 naming the first problems and where they are. */
export function parseEditorDocument(json: string): EditorDocument {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw badRequest(
      `content: is not valid JSON (${(error as Error).message}); it must be an editor document, see docs/templates.md`,
    );
  }
  const parsed = EditorDocument.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${describePath(issue.path)}: ${issue.message}`);
    throw badRequest(problems.join('; '));
  }
  return parsed.data;
}

/** Every link target in the document, in order. */
export function documentLinks(document: EditorDocument): string[] {
  const links: string[] = [];
  for (const block of document.blocks) {
    if (block.type === 'paragraph') {
      for (const run of block.content) if (typeof run !== 'string' && run.href !== undefined) links.push(run.href);
    } else if (block.type === 'link' || block.type === 'button') {
      links.push(block.href);
    } else if (block.type === 'image' && block.href !== undefined) {
      links.push(block.href);
    }
  }
  return links;
}

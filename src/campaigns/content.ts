// A campaign's `content`: useSend's editor document (a JSON string of its TipTap/ProseMirror tree)
// rendered to email-safe HTML in the frame templates use (600 px table, styles inlined by juice).
// The tree is checked as it is rendered (content-tree.ts); any problem is a 400 naming where it is.
import { emailFrame, FONT } from '../templates/render.ts';
import { renderRows } from './content-blocks.ts';
import { readDocument, refuse } from './content-tree.ts';

const MONOSPACE = 'SFMono-Regular, Menlo, Consolas, "Liberation Mono", "Courier New", monospace';

// What templates' stylesheet has no rule for: the elements useSend's editor has and templates don't.
const CONTENT_CSS = `
h4, h5, h6 { margin: 0; font-family: ${FONT}; font-size: 18px; line-height: 26px; font-weight: bold; color: #111827; }
ul, ol { margin: 0; padding: 0 0 0 26px; }
li { margin: 0 0 4px 0; font-family: ${FONT}; font-size: 16px; line-height: 24px; color: #111827; }
blockquote { margin: 0; padding: 0 0 0 16px; border-left: 4px solid #d1d5db; }
pre { margin: 0; padding: 16px; border-radius: 6px; background-color: #f3f4f6; white-space: pre-wrap; font-family: ${MONOSPACE}; font-size: 14px; line-height: 20px; color: #111827; }
code { padding: 2px 4px; border-radius: 4px; background-color: #f3f4f6; font-family: ${MONOSPACE}; font-size: 14px; }
pre code { padding: 0; background-color: transparent; }
s { text-decoration: line-through; }
`;

/** The HTML body of a campaign whose `content` is useSend's editor JSON; 400 on any problem. */
export async function renderCampaignContent(json: string): Promise<string> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    refuse(`is not valid JSON (${(error as Error).message}); it must be useSend's editor document`);
  }
  return emailFrame(renderRows(readDocument(value)), CONTENT_CSS);
}

// The inline nodes of useSend's editor document (text, hardBreak, variable) and the marks on them.
// Texts are HTML-escaped; `{{variables}}` in them pass through untouched, filled at send time.
import { escapeHtml } from '../platform/escape-html.ts';
import { singleVariableName } from '../templates/variables.ts';
import {
  colourAttr,
  INLINE_TYPES,
  marksOf,
  quoted,
  refuse,
  refuseNode,
  stringAttr,
  urlAttr,
  type Mark,
  type TreeNode,
} from './content-tree.ts';

export const MARK_TYPES = ['bold', 'italic', 'underline', 'strike', 'code', 'link', 'textStyle'] as const;

function wrapInMark(mark: Mark, html: string): string {
  switch (mark.type) {
    case 'bold':
      return `<strong>${html}</strong>`;
    case 'italic':
      return `<em>${html}</em>`;
    case 'underline':
      return `<u>${html}</u>`;
    case 'strike':
      return `<s>${html}</s>`;
    case 'code':
      return `<code>${html}</code>`;
    case 'link':
      return `<a href="${escapeHtml(urlAttr(mark, 'href'))}">${html}</a>`;
    case 'textStyle': {
      // useSend's Color extension: the text's colour; its other attributes are not set by the editor.
      const colour = colourAttr(mark, 'color');
      return colour === undefined ? html : `<span style="color: ${escapeHtml(colour)};">${html}</span>`;
    }
    default:
      return refuse(`mark type ${quoted(mark.type)} at ${mark.path} is not rendered (${MARK_TYPES.join(', ')})`);
  }
}

/**
 * useSend's variable node: its name is `attrs.id` (what useSend's renderer reads; `name` holds the
 * same). Herald fills `{{name}}` at send time but has no fallbacks, so one is refused, not dropped.
 */
function variable(node: TreeNode): string {
  const name = stringAttr(node, 'id') ?? stringAttr(node, 'name');
  if (name === undefined || singleVariableName(`{{${name}}}`) !== name)
    refuse(`${node.path}.attrs.id must be a variable name (letters, digits, _ . -)`);
  if ((stringAttr(node, 'fallback') ?? '') !== '')
    refuse(`${node.path}.attrs.fallback: variable fallbacks are not supported; give the contact a value instead`);
  return `{{${name}}}`;
}

function inlineBody(node: TreeNode): string {
  switch (node.type) {
    case 'text':
      if (typeof node.json.text !== 'string') refuse(`${node.path}.text must be a string`);
      return escapeHtml(node.json.text);
    case 'hardBreak':
      return '<br>';
    case 'variable':
      return variable(node);
    default:
      return refuseNode(node, INLINE_TYPES);
  }
}

/** One inline node with its marks, the first mark innermost (as useSend's renderer applies them). */
export function renderInline(node: TreeNode): string {
  return marksOf(node).reduce((html, mark) => wrapInMark(mark, html), inlineBody(node));
}

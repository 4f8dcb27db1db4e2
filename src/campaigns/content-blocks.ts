// The block nodes of useSend's editor document. Attribute names and defaults are those of useSend's
// packages/email-editor (extensions/ButtonExtension.ts, ImageExtension.tsx, renderer.tsx), so a
// document saved by its editor renders as its author saw it.
import { escapeHtml } from '../platform/escape-html.ts';
import { CONTENT_WIDTH, imageSourceProblem } from '../templates/editor-document.ts';
import {
  blockRow,
  DEFAULT_DIVIDER,
  dividerHtml,
  imageMargin,
  presentation,
  spacerRow,
  tableAlign,
} from '../templates/render.ts';
import { renderInline } from './content-inline.ts';
import {
  attrOf,
  BLOCK_TYPES,
  childrenOf,
  choiceAttr,
  colourAttr,
  integerAttr,
  optionalLinkAttr,
  pixelsAttr,
  refuseNode,
  stringAttr,
  urlAttr,
  type TreeNode,
} from './content-tree.ts';

const attr = escapeHtml;
const ALIGNMENTS = ['left', 'center', 'right'] as const;
// useSend's spacer sizes (renderer.tsx); a number is pixels.
const SPACERS: Record<string, number> = { sm: 8, md: 16, lg: 32, xl: 64 };
const DEFAULT_SPACER = 'md';

const inlineChildren = (node: TreeNode) => childrenOf(node).map(renderInline).join('');

/** Paragraphs and headings: useSend's TextAlign extension (left, center, right, justify). */
function alignStyle(node: TreeNode): string {
  const align = choiceAttr(node, 'textAlign', [...ALIGNMENTS, 'justify']);
  return align === undefined || align === 'left' ? '' : ` style="text-align: ${align};"`;
}

/** An empty paragraph is a blank line in the editor; `&nbsp;` keeps it one in the mail. */
function paragraph(node: TreeNode, small = false): string {
  const inner = inlineChildren(node);
  return `<p${small ? ' class="small"' : ''}${alignStyle(node)}>${inner === '' ? '&nbsp;' : inner}</p>`;
}

function heading(node: TreeNode): string {
  const level = integerAttr(node, 'level', 1, 6) ?? 1;
  const inner = inlineChildren(node);
  return `<h${level}${alignStyle(node)}>${inner === '' ? '&nbsp;' : inner}</h${level}>`;
}

function orderedList(node: TreeNode): string {
  const start = integerAttr(node, 'start', 0, 1_000_000_000) ?? 1;
  return `<ol${start === 1 ? '' : ` start="${start}"`}>${listItems(node)}</ol>`;
}

function listItems(list: TreeNode): string {
  return childrenOf(list)
    .map((item) => (item.type === 'listItem' ? `<li>${blockChildren(item)}</li>` : refuseNode(item, ['listItem'])))
    .join('');
}

/** A hex colour for a `bgcolor` attribute (which reads no rgb()), when the colour has one. */
function hexColour(colour: string): string | null {
  if (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(colour)) return colour;
  const rgb = /^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/i.exec(colour);
  if (rgb === null) return null;
  return `#${rgb
    .slice(1)
    .map((part) => Math.min(Number(part), 255).toString(16).padStart(2, '0'))
    .join('')}`;
}

/** useSend's button node: text, url, alignment, colours and border, defaults as its editor's. */
function button(node: TreeNode): string {
  const label = stringAttr(node, 'text') ?? 'Button';
  const href = urlAttr(node, 'url');
  const background = colourAttr(node, 'buttonColor') ?? 'rgb(0, 0, 0)';
  const colour = colourAttr(node, 'textColor') ?? 'rgb(255, 255, 255)';
  const borderColour = colourAttr(node, 'borderColor') ?? 'rgb(0, 0, 0)';
  const borderWidth = pixelsAttr(node, 'borderWidth', 0, 20) ?? 1;
  const radius = pixelsAttr(node, 'borderRadius', 0, 100) ?? 4;
  const hex = hexColour(background);
  // A "bulletproof" button, as templates': the cell carries the colour for clients that ignore the link's.
  return (
    `<table ${presentation} class="button"${tableAlign(buttonAlign(node))}><tr>` +
    `<td class="button-cell"${hex === null ? '' : ` bgcolor="${hex}"`} style="background-color: ${attr(background)}; border-radius: ${radius}px;">` +
    `<a class="button-link" href="${attr(href)}" style="background-color: ${attr(background)}; color: ${attr(colour)}; ` +
    `border: ${borderWidth}px solid ${attr(borderColour)}; border-radius: ${radius}px;">${attr(label)}</a>` +
    `</td></tr></table>`
  );
}

const buttonAlign = (node: TreeNode) => choiceAttr(node, 'alignment', ALIGNMENTS) ?? 'left';
const imageAlign = (node: TreeNode) => choiceAttr(node, 'alignment', ALIGNMENTS) ?? 'center';

/** useSend's image node: src (https only), alt, width, alignment, border, externalLink. */
function image(node: TreeNode): string {
  const src = urlAttr(node, 'src', imageSourceProblem);
  const alt = stringAttr(node, 'alt') ?? '';
  // useSend's column is 600 px wide, Herald's content 552: a wider image is made to fit.
  const width = pixelsAttr(node, 'width', 1, CONTENT_WIDTH) ?? CONTENT_WIDTH;
  const radius = pixelsAttr(node, 'borderRadius', 0, 1000) ?? 0;
  const borderWidth = pixelsAttr(node, 'borderWidth', 0, 20) ?? 0;
  const borderColour = colourAttr(node, 'borderColor') ?? 'rgb(0, 0, 0)';
  const style =
    `width: ${width}px; ${imageMargin(imageAlign(node))}` +
    (radius > 0 ? ` border-radius: ${radius}px;` : '') +
    (borderWidth > 0 ? ` border: ${borderWidth}px solid ${attr(borderColour)};` : '');
  const html = `<img src="${attr(src)}" alt="${attr(alt)}" width="${width}" style="${style.trim()}">`;
  const link = optionalLinkAttr(node, 'externalLink');
  return link === undefined ? html : `<a href="${attr(link)}">${html}</a>`;
}

function spacerHeight(node: TreeNode): number {
  const height = attrOf(node, 'height');
  if (typeof height === 'string' && Object.hasOwn(SPACERS, height)) return SPACERS[height]!;
  return pixelsAttr(node, 'height', 0, 200) ?? SPACERS[DEFAULT_SPACER]!;
}

/** useSend's unsubscribe footer: its own text in small print, or a link to the unsubscribe page. */
function unsubscribeFooter(node: TreeNode): string {
  const inner = inlineChildren(node);
  return `<p class="small">${inner === '' ? '<a href="{{unsubscribeUrl}}">Unsubscribe</a>' : inner}</p>`;
}

function renderBlock(node: TreeNode): string {
  switch (node.type) {
    case 'paragraph':
      return paragraph(node);
    case 'heading':
      return heading(node);
    case 'bulletList':
      return `<ul>${listItems(node)}</ul>`;
    case 'orderedList':
      return orderedList(node);
    case 'blockquote':
      return `<blockquote>${blockChildren(node)}</blockquote>`;
    case 'codeBlock':
      return `<pre><code>${inlineChildren(node)}</code></pre>`;
    case 'horizontalRule':
      return dividerHtml(DEFAULT_DIVIDER);
    case 'image':
      return image(node);
    case 'button':
      return button(node);
    case 'spacer': {
      const height = spacerHeight(node);
      return `<div style="height: ${height}px; line-height: ${height}px; font-size: 1px;">&nbsp;</div>`;
    }
    case 'unsubscribeFooter':
      return unsubscribeFooter(node);
    default:
      return refuseNode(node, BLOCK_TYPES);
  }
}

function blockChildren(node: TreeNode): string {
  return childrenOf(node).map(renderBlock).join('');
}

/** The document's rows: one per top-level block, aligned as its node says. */
export function renderRows(doc: TreeNode): string {
  return childrenOf(doc)
    .map((node) => {
      if (node.type === 'spacer') return spacerRow(spacerHeight(node));
      const html = renderBlock(node);
      const align = node.type === 'button' ? buttonAlign(node) : node.type === 'image' ? imageAlign(node) : 'left';
      return blockRow(html, align);
    })
    .join('');
}

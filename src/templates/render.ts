// Editor document -> email-safe HTML: a table layout 600 px wide, every style inlined (juice), every
// text and attribute HTML-escaped. `{{variables}}` pass through untouched; they are filled at send
// time by variables.ts.
import type { EditorBlock, EditorDocument, TextRun } from './editor-document.ts';
import { CONTENT_WIDTH } from './editor-document.ts';
import { escapeHtml } from '../platform/escape-html.ts';
import { lazy } from '../platform/lazy.ts';

/** juice (with cheerio), read at the first document rendered. */
export const juicePackage = lazy(async () => (await import('juice')).default);

export const FONT = 'Arial, Helvetica, sans-serif';

// Inlined into style attributes by juice; no <style> element reaches the mail client.
const STYLESHEET = `
body { margin: 0; padding: 0; background-color: #f4f4f5; }
.wrapper { width: 100%; background-color: #f4f4f5; }
.wrapper-cell { padding: 24px 0; }
.container { width: 600px; max-width: 600px; background-color: #ffffff; }
.block { padding: 8px 24px; font-family: ${FONT}; font-size: 16px; line-height: 24px; color: #111827; }
.spacer { padding: 0; font-size: 1px; line-height: 1px; }
h1 { margin: 0; font-family: ${FONT}; font-size: 28px; line-height: 36px; font-weight: bold; color: #111827; }
h2 { margin: 0; font-family: ${FONT}; font-size: 22px; line-height: 30px; font-weight: bold; color: #111827; }
h3 { margin: 0; font-family: ${FONT}; font-size: 18px; line-height: 26px; font-weight: bold; color: #111827; }
p { margin: 0; font-family: ${FONT}; font-size: 16px; line-height: 24px; color: #111827; }
p.small { font-size: 12px; line-height: 18px; color: #6b7280; }
a { color: #2563eb; text-decoration: underline; }
p.small a { color: #6b7280; }
.button-cell { border-radius: 6px; }
.button-link { display: inline-block; padding: 12px 24px; border-radius: 6px; font-family: ${FONT}; font-size: 16px; line-height: 20px; font-weight: bold; text-decoration: none; }
.divider { font-size: 1px; line-height: 1px; height: 1px; }
img { border: 0; outline: none; text-decoration: none; height: auto; display: block; max-width: 100%; }
`;

const DEFAULT_BUTTON_BACKGROUND = '#2563eb';
const DEFAULT_BUTTON_TEXT = '#ffffff';
export const DEFAULT_DIVIDER = '#e5e7eb';
const DEFAULT_SPACER = 24;

/** Text with its line breaks kept. */
const text = (value: string) => escapeHtml(value).replace(/\r\n|\r|\n/g, '<br>');
const attr = escapeHtml;
export const presentation = 'role="presentation" cellpadding="0" cellspacing="0" border="0"';

function renderRun(run: TextRun): string {
  if (typeof run === 'string') return text(run);
  let html = text(run.text);
  if (run.italic) html = `<em>${html}</em>`;
  if (run.bold) html = `<strong>${html}</strong>`;
  if (run.href !== undefined) html = `<a href="${attr(run.href)}">${html}</a>`;
  return html;
}

export function tableAlign(align: string): string {
  return align === 'left' ? '' : ` align="${align}"`;
}

export function imageMargin(align: string): string {
  if (align === 'center') return 'margin: 0 auto;';
  if (align === 'right') return 'margin: 0 0 0 auto;';
  return '';
}

function renderBlockBody(block: EditorBlock, align: string): string {
  switch (block.type) {
    case 'heading':
      return `<h${block.level}>${text(block.text)}</h${block.level}>`;
    case 'paragraph':
      return `<p${block.size === 'small' ? ' class="small"' : ''}>${block.content.map(renderRun).join('')}</p>`;
    case 'link':
      return `<p><a href="${attr(block.href)}">${text(block.text)}</a></p>`;
    case 'button': {
      const background = block.backgroundColor ?? DEFAULT_BUTTON_BACKGROUND;
      const colour = block.textColor ?? DEFAULT_BUTTON_TEXT;
      // A "bulletproof" button: the cell carries the colour for clients that ignore the link's styles.
      return (
        `<table ${presentation} class="button"${tableAlign(align)}><tr>` +
        `<td class="button-cell" bgcolor="${background}" style="background-color: ${background};">` +
        `<a class="button-link" href="${attr(block.href)}" style="background-color: ${background}; color: ${colour}; border: 1px solid ${background};">${text(block.label)}</a>` +
        `</td></tr></table>`
      );
    }
    case 'image': {
      const width = block.width ?? CONTENT_WIDTH;
      const image = `<img src="${attr(block.src)}" alt="${attr(block.alt)}" width="${width}" style="width: ${width}px; ${imageMargin(align)}">`;
      return block.href === undefined ? image : `<a href="${attr(block.href)}">${image}</a>`;
    }
    case 'divider':
      return dividerHtml(block.color ?? DEFAULT_DIVIDER);
    case 'spacer':
      return '';
  }
}

/** A horizontal rule that every client draws: a table cell's top border. */
export function dividerHtml(colour: string): string {
  return `<table ${presentation} width="100%"><tr><td class="divider" style="border-top: 1px solid ${colour};">&nbsp;</td></tr></table>`;
}

export function spacerRow(height: number): string {
  return `<tr><td class="spacer" height="${height}" style="height: ${height}px;">&nbsp;</td></tr>`;
}

/** One block of the 600 px column; `align` is left, center or right. */
export function blockRow(bodyHtml: string, align: string): string {
  return `<tr><td class="block" align="${align}" style="text-align: ${align};">${bodyHtml}</td></tr>`;
}

function renderBlock(block: EditorBlock): string {
  if (block.type === 'spacer') return spacerRow(block.height ?? DEFAULT_SPACER);
  const align = 'align' in block && block.align !== undefined ? block.align : 'left';
  return blockRow(renderBlockBody(block, align), align);
}

/**
 * The email around `rowsHtml` (`<tr>` rows of the 600 px column), with the stylesheet, and
 * `extraCss` after it, inlined. Campaigns' editor documents share it (campaigns/content.ts).
 */
export async function emailFrame(rowsHtml: string, extraCss = ''): Promise<string> {
  const html =
    '<!DOCTYPE html><html><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="x-apple-disable-message-reformatting"></head>' +
    `<body><table ${presentation} class="wrapper" width="100%"><tr><td class="wrapper-cell" align="center">` +
    `<table ${presentation} class="container" width="600">${rowsHtml}</table>` +
    '</td></tr></table></body></html>';
  return (await juicePackage()).inlineContent(html, STYLESHEET + extraCss, {
    applyWidthAttributes: false,
    applyHeightAttributes: false,
  });
}

/** The HTML body an editor document sends. */
export async function renderDocument(document: EditorDocument): Promise<string> {
  return emailFrame(document.blocks.map(renderBlock).join(''));
}

// Contract (Templates): HTML is sanitised on the way in. Kept: the tags and attributes email HTML is
// made of (tables, images, inline styles, fonts, the document skeleton). Removed: script, style,
// iframe, object, form and their kin, every event handler, and URLs other than http(s), mailto and
// tel (images may also use cid: for inline attachments). `{{variables}}` in links survive; they are
// checked when filled (variables.ts).
import type sanitizeHtml from 'sanitize-html';
import { lazy } from '../platform/lazy.ts';
import { juicePackage } from './render.ts';

const LAYOUT = [
  'align',
  'valign',
  'width',
  'height',
  'bgcolor',
  'border',
  'dir',
  'lang',
  'title',
  'style',
  'class',
  'id',
  'role',
];

/** The allow-list, on top of the package's default tags. */
const optionsWith = (defaultTags: string[]): sanitizeHtml.IOptions => ({
  allowedTags: [
    ...defaultTags,
    'html',
    'head',
    'body',
    'title',
    'meta',
    'img',
    'center',
    'font',
    'big',
    'strike',
    'tt',
  ],
  allowedAttributes: {
    '*': LAYOUT,
    // No http-equiv: a refresh header in a mail body is a redirect.
    meta: ['charset', 'name', 'content'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt'],
    table: ['cellpadding', 'cellspacing', 'background'],
    td: ['colspan', 'rowspan', 'nowrap', 'background'],
    th: ['colspan', 'rowspan', 'nowrap', 'background', 'scope'],
    col: ['span'],
    colgroup: ['span'],
    font: ['color', 'face', 'size'],
    body: ['background', 'link', 'vlink', 'alink', 'text'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'cid'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'background', 'cite'],
  allowProtocolRelative: false,
  // Text inside these is dropped with the element (title is allowed, so its text stays in <head>).
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'template', 'svg', 'math'],
  transformTags: { '*': (tagName, attribs) => ({ tagName, attribs: withSafeStyle(attribs) }) },
});

/** sanitize-html (with its parser and postcss) and the options, read at the first HTML body sanitised. */
const sanitizer = lazy(async () => {
  const sanitizeHtml = (await import('sanitize-html')).default;
  return { sanitizeHtml, options: optionsWith(sanitizeHtml.defaults.allowedTags) };
});

// CSS that can run code in old engines, or url() to anything but http(s)/cid (or hidden behind CSS
// escapes); the declaration holding it is dropped.
const UNSAFE_CSS =
  /expression\s*\(|javascript:|vbscript:|-moz-binding|behavior\s*:|@import|url\s*\(\s*['"]?\s*(?!https?:\/\/|cid:)|url\s*\([^)]*\\/i;

function withSafeStyle(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const style = attribs.style;
  if (style === undefined || !UNSAFE_CSS.test(style)) return attribs;
  const kept = style
    .split(';')
    .filter((declaration) => !UNSAFE_CSS.test(declaration))
    .join(';');
  return { ...attribs, style: kept };
}

// Inlining costs about (rules x elements): about a second at these sizes, minutes at 2 MB. Past
// them the <style> elements are removed without inlining. 100,000 is about where Gmail clips a message.
const INLINE_HTML_MAX = 100_000;
const INLINE_CSS_MAX = 20_000;

function styleElementsLength(html: string): number {
  let length = 0;
  for (const match of html.matchAll(/<style[^>]*>([^]*?)<\/style\s*>/gi)) length += match[1]!.length;
  return length;
}

/** Rules of a <style> element are copied into style attributes first, so the design survives its removal. */
async function inlineStyleElements(html: string): Promise<string> {
  if (!/<style[\s>]/i.test(html) || html.length > INLINE_HTML_MAX || styleElementsLength(html) > INLINE_CSS_MAX)
    return html;
  const juice = await juicePackage();
  try {
    return juice(html, {
      removeStyleTags: true,
      preserveMediaQueries: false,
      preserveFontFaces: false,
      preserveKeyFrames: false,
      preservePseudos: false,
      applyWidthAttributes: false,
      applyHeightAttributes: false,
    });
  } catch {
    return html; // CSS juice cannot read: the element is removed below without its rules.
  }
}

export async function sanitizeTemplateHtml(html: string): Promise<string> {
  const { sanitizeHtml, options } = await sanitizer();
  const clean = sanitizeHtml(await inlineStyleElements(html), options).trim();
  // The parser drops the doctype; a whole document gets the HTML5 one back (standards mode).
  return /^<html[\s>]/i.test(clean) ? `<!DOCTYPE html>${clean}` : clean;
}

// The html of a received message made safe to show in a team's app (contract: Inbound message, html
// "sanitized: no scripts, forms or frames; remote images moved to data-remote-src"). sanitize-html
// keeps an allow-list of tags and attributes, so anything not named here (script, style, iframe,
// form, input, object, embed, on* handlers, srcset, background) is dropped. Links keep http(s),
// mailto and tel only (no javascript:). Remote images do not load (they track the reader): their
// address moves to data-remote-src for the app to offer. Inline images stay `cid:` links here and
// become signed attachment links when the message is read (view.ts), since those links expire.
import type sanitize from 'sanitize-html';
import { lazy } from '../platform/lazy.ts';

const SAFE_STYLE_VALUE = /^[#\w\s,.%'"!-]+$/;
const STYLE_PROPERTIES = [
  'color',
  'background-color',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'line-height',
  'text-align',
  'text-decoration',
  'vertical-align',
  'white-space',
  'width',
  'height',
  'max-width',
  'margin',
  'margin-top',
  'margin-bottom',
  'margin-left',
  'margin-right',
  'padding',
  'padding-top',
  'padding-bottom',
  'padding-left',
  'padding-right',
  'border',
  'border-collapse',
  'border-radius',
  'display',
];

/** The allow-list, on top of the package's default tags. */
const optionsWith = (defaultTags: string[]): sanitize.IOptions => ({
  allowedTags: [...defaultTags.filter((tag) => tag !== 'style'), 'img', 'font', 'center', 'u', 's', 'strike'],
  allowedAttributes: {
    a: ['href', 'name', 'title', 'target', 'rel'],
    img: ['src', 'data-remote-src', 'alt', 'title', 'width', 'height'],
    font: ['color', 'face', 'size'],
    td: ['colspan', 'rowspan', 'align', 'valign', 'width'],
    th: ['colspan', 'rowspan', 'align', 'valign', 'width'],
    table: ['width', 'cellpadding', 'cellspacing', 'border', 'align'],
    '*': ['style', 'dir', 'lang', 'align'],
  },
  // No parentheses in a kept style value: no url(), expression() or var() that could load or run.
  allowedStyles: { '*': Object.fromEntries(STYLE_PROPERTIES.map((name) => [name, [SAFE_STYLE_VALUE]])) },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['cid'] },
  allowProtocolRelative: false,
  // Whatever a dropped tag held that is not content (a script's code, a style sheet) goes with it.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'head', 'template'],
  transformTags: {
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      const source = (src ?? '').trim();
      if (/^(https?:)?\/\//i.test(source)) return { tagName, attribs: { ...rest, 'data-remote-src': source } };
      if (/^cid:/i.test(source)) return { tagName, attribs: { ...rest, src: source } };
      // data:, javascript: and the rest: no source at all.
      const { 'data-remote-src': _ignored, ...others } = rest;
      return { tagName, attribs: others };
    },
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
  },
});

/** sanitize-html (with its parser and postcss) and the options, read at the first message received. */
const sanitizer = lazy(async () => {
  const sanitize = (await import('sanitize-html')).default;
  return { sanitize, options: optionsWith(sanitize.defaults.allowedTags) };
});

export async function sanitizeInboundHtml(html: string): Promise<string> {
  const { sanitize, options } = await sanitizer();
  return sanitize(html, options);
}

/** The inline images' `cid:` sources (as sanitizeInboundHtml writes them) replaced by `linkOf(contentId)`. */
export function linkInlineImages(html: string, linkOf: (contentId: string) => string | null): string {
  return html.replace(/src="cid:([^"]*)"/gi, (whole, encoded: string) => {
    const link = linkOf(decodeEntities(encoded));
    return link === null ? whole : `src="${link.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
  });
}

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

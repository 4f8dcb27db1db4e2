// Open and click tracking applied to a message's HTML at delivery, before MIME building and DKIM
// signing (the signature covers the rewritten body).
//
// Only the href values of <a> tags change; every other byte stays as it was (other attributes,
// entities, comments, whitespace). A full HTML parser would re-serialise the document, and
// htmlparser2 is not a dependency of ours (only of sanitize-html), so <a> tags are found by a scan
// that follows the HTML tokenizer's rules for attributes (quoted, unquoted and bare), which a single
// regex cannot do without being fooled by a quote inside an unquoted value. Links inside comments are
// rewritten too: Outlook renders <!--[if mso]> blocks.
//
// Never rewritten: anything but http(s) (mailto:, tel:, #anchors, relative links), links under
// HERALD_PUBLIC_URL (unsubscribe, confirmation and tracking links are Herald's own), the caller's
// `keep` list (the List-Unsubscribe target, the unsubscribe placeholder), <a> tags carrying a
// `data-herald-no-track` attribute, hrefs with a named entity we do not decode (we would redirect to
// the wrong place), and links whose token would not fit a path parameter.
import type { Secrets } from '../platform/crypto.ts';
import { CLICK_PATH, clickUrl, openUrl, TRACKING_TOKEN_MAX_LENGTH, type TrackedEmail } from './tokens.ts';

export const NO_TRACK_ATTRIBUTE = 'data-herald-no-track';

export interface HtmlTracking {
  secrets: Secrets;
  /** HERALD_PUBLIC_URL, no trailing slash. */
  publicUrl: string;
  email: TrackedEmail;
  open: boolean;
  click: boolean;
  /** Links (decoded, exact, or prefixes ending in '/') never to rewrite besides the rules above. */
  keep?: readonly (string | null)[];
}

export function addTracking(html: string, tracking: HtmlTracking): string {
  const { secrets, publicUrl, email } = tracking;
  let out = html;
  if (tracking.click) {
    const keep = [`${publicUrl}/`, ...(tracking.keep ?? []).filter((k): k is string => k !== null && k !== '')];
    const kept = (link: string) => keep.some((k) => (k.endsWith('/') ? link.startsWith(k) : link === k));
    out = rewriteLinks(out, (link) => {
      if (kept(link)) return null;
      const tracked = clickUrl(secrets, publicUrl, { ...email, link });
      // Longer than the router takes as a path parameter: the link stays as it is, untracked.
      return tracked.length - publicUrl.length - CLICK_PATH.length - 1 > TRACKING_TOKEN_MAX_LENGTH ? null : tracked;
    });
  }
  return tracking.open ? insertPixel(out, openUrl(secrets, publicUrl, email)) : out;
}

/** The pixel before the last </body>, or at the end when there is none. Inserted exactly once. */
export function insertPixel(html: string, pixelUrl: string): string {
  const img = `<img src="${pixelUrl}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">`;
  const at = html.toLowerCase().lastIndexOf('</body');
  return at < 0 ? html + img : html.slice(0, at) + img + html.slice(at);
}

/**
 * Calls `replace` with the decoded http(s) target of each <a href> (without `data-herald-no-track`)
 * and puts its answer, when not null, in place of the href value. `replace` answers ASCII URLs only.
 */
export function rewriteLinks(html: string, replace: (link: string) => string | null): string {
  const parts: string[] = [];
  let copied = 0;
  const tagStart = /<a[\s/>]/gi;
  for (let match = tagStart.exec(html); match !== null; match = tagStart.exec(html)) {
    const tag = scanAttributes(html, match.index + 2);
    tagStart.lastIndex = tag.end;
    const href = tag.attributes.find((a) => a.name === 'href');
    if (href === undefined || href.value === null || tag.attributes.some((a) => a.name === NO_TRACK_ATTRIBUTE))
      continue;
    const link = trackableLink(href.value.text);
    const replacement = link === null ? null : replace(link);
    if (replacement === null) continue;
    parts.push(html.slice(copied, href.value.start), replacement);
    copied = href.value.end;
  }
  parts.push(html.slice(copied));
  return parts.join('');
}

interface Attribute {
  /** Lower-cased, as HTML compares attribute names. */
  name: string;
  /** Offsets of the value without its quotes; null for a bare attribute. */
  value: { start: number; end: number; text: string } | null;
}

const SPACE = /[\t\n\f\r ]/;

/** The attributes of the tag whose name ends before `from`, and the offset after its `>`. */
function scanAttributes(html: string, from: number): { attributes: Attribute[]; end: number } {
  const attributes: Attribute[] = [];
  let i = from;
  const skipSpace = () => {
    while (i < html.length && SPACE.test(html[i]!)) i++;
  };
  while (i < html.length) {
    skipSpace();
    if (html[i] === '>') return { attributes, end: i + 1 };
    if (html[i] === '/') {
      i++;
      continue;
    }
    // A name runs to whitespace, '/', '>' or '=' (a leading '=' belongs to the name, as in HTML).
    const nameStart = i;
    i++;
    while (i < html.length && !SPACE.test(html[i]!) && html[i] !== '/' && html[i] !== '>' && html[i] !== '=') i++;
    const name = html.slice(nameStart, i).toLowerCase();
    skipSpace();
    if (html[i] !== '=') {
      attributes.push({ name, value: null });
      continue;
    }
    i++;
    skipSpace();
    const quote = html[i];
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, i + 1);
      const end = close < 0 ? html.length : close;
      attributes.push({ name, value: { start: i + 1, end, text: html.slice(i + 1, end) } });
      i = end + 1;
    } else {
      const start = i;
      while (i < html.length && !SPACE.test(html[i]!) && html[i] !== '>') i++;
      attributes.push({ name, value: { start, end: i, text: html.slice(start, i) } });
    }
  }
  return { attributes, end: html.length };
}

const BASIC_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const CHARACTER_REFERENCE = /&(?:#(\d{1,7});?|#[xX]([0-9a-fA-F]{1,6});?|([a-zA-Z][a-zA-Z0-9]*);)/g;

/**
 * The href's target, decoded as a browser would, when it is an absolute http(s) URL; otherwise null.
 * `&name` without ';' stays literal (HTML does not decode it in an attribute before '=' or a letter,
 * the usual `?a=1&b=2`); a named entity other than the basic five leaves the link untracked.
 */
export function trackableLink(raw: string): string | null {
  let unknown = false;
  const decoded = raw
    .replace(CHARACTER_REFERENCE, (whole, decimal?: string, hex?: string, name?: string) => {
      if (name !== undefined) {
        const known = BASIC_ENTITIES[name];
        if (known === undefined) unknown = true;
        return known ?? whole;
      }
      const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
      return String.fromCodePoint(code);
    })
    // Browsers strip leading and trailing whitespace from URLs.
    .replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  if (unknown || !/^https?:\/\//i.test(decoded)) return null;
  if (/^[\x21-\x7e]+$/.test(decoded)) return decoded;
  // Non-ASCII or inner whitespace: the equivalent ASCII form (punycode host, percent-encoding), as
  // the browser would request it, so that the redirect's Location header is valid.
  try {
    return new URL(decoded).href;
  } catch {
    return null;
  }
}

// The HTML rewrite: http(s) links become signed redirects, nothing else changes (entities, other
// attributes, quotes); mailto:, tel:, Herald's own links, kept links and marked links stay; the pixel
// goes in once, before </body>.
import { describe, expect, it } from 'vitest';
import { Secrets } from '../../src/platform/crypto.ts';
import { addTracking, insertPixel, rewriteLinks, trackableLink } from '../../src/tracking/rewrite-html.ts';
import { readClickToken, readOpenToken } from '../../src/tracking/tokens.ts';

const secrets = new Secrets('tracking-test-secret-0123456789-0123456789');
const PUBLIC = 'https://herald.test';
const email = { teamId: 3, emailId: 'em_rewrite', recipient: null };
const track = (html: string, open = false, click = true, keep: string[] = []) =>
  addTracking(html, { secrets, publicUrl: PUBLIC, email, open, click, keep });
const mark = (link: string) => `[${link}]`;

/** The links a rewritten document points to, decoded from their tokens. */
function trackedLinks(html: string): string[] {
  return [...html.matchAll(/https:\/\/herald\.test\/t\/c\/([^"' >]+)/g)].map(
    (m) => readClickToken(secrets, m[1]!)?.link ?? 'INVALID',
  );
}

describe('rewriteLinks', () => {
  it('replaces only the href value, keeping quotes, other attributes and entities', () => {
    const html = `<p>a &amp; b</p><A class="x" HREF='https://e.test/?a=1&amp;b=2' title="it's &quot;here&quot;">go &rarr;</A>`;
    expect(rewriteLinks(html, mark)).toBe(
      `<p>a &amp; b</p><A class="x" HREF='[https://e.test/?a=1&b=2]' title="it's &quot;here&quot;">go &rarr;</A>`,
    );
  });

  it('handles unquoted values, quotes inside other attributes and > inside quoted values', () => {
    expect(rewriteLinks('<a title="a > b" href=https://e.test/x>x</a>', mark)).toBe(
      '<a title="a > b" href=[https://e.test/x]>x</a>',
    );
    expect(rewriteLinks(`<a title=it's href="https://e.test/">x</a><a href="https://f.test/">y</a>`, mark)).toBe(
      `<a title=it's href="[https://e.test/]">x</a><a href="[https://f.test/]">y</a>`,
    );
  });

  it('leaves mailto:, tel:, anchors, relative and script links, <a> without href and marked links', () => {
    const html = [
      '<a href="mailto:a@e.test">m</a>',
      '<a href="tel:+15550100">t</a>',
      '<a href="#top">a</a>',
      '<a href="/relative">r</a>',
      '<a href="javascript:alert(1)">j</a>',
      '<a name="x">n</a>',
      '<abbr href="https://e.test/">not a link</abbr>',
      '<a data-herald-no-track href="https://e.test/private">p</a>',
    ].join('');
    expect(rewriteLinks(html, mark)).toBe(html);
  });

  it('rewrites links in Outlook conditional comments too', () => {
    expect(rewriteLinks('<!--[if mso]><a href="https://e.test/">o</a><![endif]-->', mark)).toBe(
      '<!--[if mso]><a href="[https://e.test/]">o</a><![endif]-->',
    );
  });
});

describe('trackableLink', () => {
  it('decodes character references as a browser does, keeping &name without ;', () => {
    expect(trackableLink(' https://e.test/?a=1&amp;b=2&#38;c=3&#x26;d&not=4 ')).toBe(
      'https://e.test/?a=1&b=2&c=3&d&not=4',
    );
    expect(trackableLink('HTTPS://E.test/')).toBe('HTTPS://E.test/');
    expect(trackableLink('https://e.test/caf\u00e9')).toBe('https://e.test/caf%C3%A9');
  });

  it('refuses what it cannot decode for sure and what is not http(s)', () => {
    expect(trackableLink('https://e.test/?a&copy;')).toBeNull();
    expect(trackableLink('mailto:x@e.test')).toBeNull();
    expect(trackableLink('ftp://e.test/')).toBeNull();
  });
});

describe('addTracking', () => {
  it('rewrites http(s) links to tokens naming the decoded link, not Herald or kept links', () => {
    const html = [
      '<a href="https://shop.test/a?x=1&amp;y=2">a</a>',
      '<a href="http://shop.test/b">b</a>',
      `<a href="${PUBLIC}/unsubscribe/abc.def">unsubscribe</a>`,
      '<a href="https://unsubscribe.herald.invalid/link">placeholder</a>',
      '<a href="https://lists.test/u/1">list-unsubscribe</a>',
      '<a href="mailto:a@e.test">mail</a><a href="tel:123">call</a>',
    ].join('');
    const out = track(html, false, true, ['https://unsubscribe.herald.invalid/link', 'https://lists.test/u/1']);
    expect(trackedLinks(out)).toEqual(['https://shop.test/a?x=1&y=2', 'http://shop.test/b']);
    expect(out).toContain(`<a href="${PUBLIC}/unsubscribe/abc.def">unsubscribe</a>`);
    expect(out).toContain('<a href="https://unsubscribe.herald.invalid/link">placeholder</a>');
    expect(out).toContain('<a href="https://lists.test/u/1">list-unsubscribe</a>');
    expect(out).toContain('<a href="mailto:a@e.test">mail</a><a href="tel:123">call</a>');
  });

  it('leaves a link untracked when its token would be too long for the router', () => {
    const long = `https://shop.test/${'x'.repeat(2000)}`;
    expect(track(`<a href="${long}">l</a>`)).toBe(`<a href="${long}">l</a>`);
  });

  it('inserts the pixel once, before the last </body>, or at the end', () => {
    const out = track('<html><body><p>hi</p></BODY></html>', true, false);
    expect(out.match(/<img /g)).toHaveLength(1);
    const [, token] =
      /<img src="https:\/\/herald\.test\/t\/o\/([^"]+)" width="1" height="1" alt=""[^>]*><\/BODY><\/html>$/.exec(out)!;
    expect(readOpenToken(secrets, token!)).toEqual(email);
    expect(insertPixel('<p>x</p>', 'https://p.test/i')).toMatch(/^<p>x<\/p><img src="https:\/\/p\.test\/i"[^>]*>$/);
    expect(insertPixel('<body>a</body><body>b</body>', 'u').indexOf('<img')).toBe('<body>a</body><body>b'.length);
  });

  it('changes nothing when neither kind is on', () => {
    const html = '<a href="https://shop.test/">x</a></body>';
    expect(track(html, false, false)).toBe(html);
  });
});

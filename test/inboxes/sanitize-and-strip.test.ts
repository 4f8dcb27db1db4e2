// The html sanitiser against a list of XSS payloads, and strippedText on replies as Gmail, Outlook,
// Apple Mail and plain `>` quoting write them. (The same functions run on every received message;
// test/inboxes/inbound-*.test.ts and corpus.test.ts go through SMTP and the API.)
import { describe, expect, it } from 'vitest';
import { linkInlineImages, sanitizeInboundHtml } from '../../src/inboxes/sanitize-html.ts';
import { applied, reverseUnits } from '../../src/inboxes/reply-parser-patch.ts';
import { strippedTextOf } from '../../src/inboxes/stripped-text.ts';

const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<img src=JaVaScRiPt:alert(1)>',
  '<img srcset="https://evil.example/x 1x">',
  '<svg onload=alert(1)>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<frameset><frame src="https://evil.example"></frameset>',
  '<object data="https://evil.example/x.swf"></object>',
  '<embed src="https://evil.example/x.swf">',
  '<form action="https://evil.example"><input name="password"><button formaction="javascript:alert(1)">go</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<textarea onfocus=alert(1)>x</textarea>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<div onmouseover="alert(1)">hover</div>',
  '<p style="background:url(javascript:alert(1))">x</p>',
  '<p style="width: expression(alert(1))">x</p>',
  '<p style="background-image:url(https://evil.example/track.gif)">x</p>',
  '<style>@import "https://evil.example/x.css"; body{background:url(https://evil.example/t.gif)}</style>',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:/">',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>x</marquee>',
  '<a href="https://ok.example" onclick="alert(1)">ok</a>',
  '"><script>alert(1)</script>',
];

describe('sanitizeInboundHtml', () => {
  it.each(XSS_PAYLOADS)('neutralises %s', async (payload) => {
    const out = await sanitizeInboundHtml(`<div>before</div>${payload}<div>after</div>`);
    expect(out).not.toMatch(
      /<\s*(script|iframe|frame|frameset|object|embed|form|input|button|textarea|svg|math|style|link|meta|base|video|audio|source|marquee|details|body)\b/i,
    );
    expect(out).not.toMatch(/\son\w+\s*=/i);
    expect(out).not.toMatch(/javascript:|vbscript:|data:text|expression\(|url\(|srcset|background=/i);
    // No image loads by itself: an img keeps no src (remote ones move to data-remote-src).
    expect(out).not.toMatch(/<img[^>]*\ssrc=/i);
    // What follows an unclosed raw-text tag (style, noscript) is dropped with it: only 'before' is sure.
    expect(out).toContain('before');
  });

  it('moves remote images to data-remote-src, keeps cid images and safe markup and links', async () => {
    const out = await sanitizeInboundHtml(
      '<p style="color: #333; font-weight: bold">Hi <a href="https://example.com/x?a=1&b=2">link</a> <a href="mailto:a@b.test">mail</a></p>' +
        '<img src="https://cdn.example/p.png" alt="p"><img src="//cdn.example/q.png"><img src="cid:part1.abc@x">' +
        '<table><tr><td colspan="2">cell</td></tr></table>',
    );
    expect(out).toContain('<p style="color:#333;font-weight:bold">');
    expect(out).toContain('href="https://example.com/x?a=1&amp;b=2"');
    expect(out).toContain('href="mailto:a@b.test"');
    expect(out).toContain('rel="noopener noreferrer"');
    expect(out).toContain('<img alt="p" data-remote-src="https://cdn.example/p.png" />');
    expect(out).toContain('data-remote-src="//cdn.example/q.png"');
    expect(out).toContain('<img src="cid:part1.abc@x" />');
    expect(out).toContain('<td colspan="2">cell</td>');
  });

  it('points cid images at their links, leaving unknown ones', async () => {
    const html = await sanitizeInboundHtml('<img src="cid:a@x"><img src="cid:unknown@x">');
    const linked = linkInlineImages(html, (cid) =>
      cid === 'a@x' ? 'https://h.test/inbound/attachments/t?x=1&y=2' : null,
    );
    expect(linked).toBe('<img src="https://h.test/inbound/attachments/t?x=1&amp;y=2" /><img src="cid:unknown@x" />');
  });
});

const GMAIL = `Yes, Thursday works for me.

Best,
Sam

On Tue, Nov 24, 2026 at 10:00 AM Alice Example <alice@example.com> wrote:

> Hi Sam,
>
> Does Thursday work for the call?
>
> Alice
`;

const GMAIL_WRAPPED_HEADER = `Sounds great, see you then.

On Tue, Nov 24, 2026 at 10:00 AM Alice Example with a very long name <
alice@example.com> wrote:

> Does Thursday work?
`;

const OUTLOOK = `I have attached the signed contract.

Regards,
Pat

________________________________
From: Alice Example <alice@example.com>
Sent: Tuesday, November 24, 2026 10:00 AM
To: Pat <pat@example.org>
Subject: Contract

Please sign the contract.
`;

const OUTLOOK_ORIGINAL = `Approved.

-----Original Message-----
From: Alice Example [mailto:alice@example.com]
Sent: Tuesday, November 24, 2026 10:00 AM
To: Pat
Subject: Budget

Can you approve the budget?
`;

const APPLE_MAIL = `Perfect, thank you!

Sent from my iPhone

> On Nov 24, 2026, at 10:00, Alice Example <alice@example.com> wrote:
>
> Your order has shipped.
`;

const APPLE_MAIL_UNQUOTED_HEADER = `Perfect, thank you!

On Nov 24, 2026, at 10:00, Alice Example <alice@example.com> wrote:

> Your order has shipped.
`;

const PLAIN_QUOTES = `> Can you send the invoice?

Here it is.

> And the receipt?

Attached too.

--
Jo
`;

describe('strippedTextOf', () => {
  it.each([
    ['Gmail', GMAIL, 'Yes, Thursday works for me.\n\nBest,\nSam'],
    ['Gmail, header wrapped', GMAIL_WRAPPED_HEADER, 'Sounds great, see you then.'],
    // The parser also takes a closing salutation and name for the signature.
    ['Outlook', OUTLOOK, 'I have attached the signed contract.'],
    ['Outlook, Original Message', OUTLOOK_ORIGINAL, 'Approved.'],
    ['Apple Mail', APPLE_MAIL, 'Perfect, thank you!'],
    ['Apple Mail, header unquoted', APPLE_MAIL_UNQUOTED_HEADER, 'Perfect, thank you!'],
  ])('keeps only the new part of a %s reply', (_client, text, expected) => {
    expect(strippedTextOf(text)).toBe(expected);
  });

  it('drops > quoted lines and the signature of plain quoting', () => {
    const stripped = strippedTextOf(PLAIN_QUOTES)!;
    expect(stripped).not.toContain('>');
    expect(stripped).not.toContain('Jo');
    expect(stripped).toContain('Here it is.');
  });

  it('keeps long lines whole (paragraphs decoded from quoted-printable), and cuts the quote after them', () => {
    const paragraph = 'A long paragraph without line breaks. '.repeat(200).trim();
    const quoted = '> ' + 'quoted words '.repeat(100);
    const text = `${paragraph}\n\nOn Tue, Nov 24, 2026 at 10:00 AM Alice <alice@example.com> wrote:\n${quoted}\n`;
    expect(strippedTextOf(text)).toBe(paragraph);
    expect(strippedTextOf(`x \u0001 0 \u0001 ${paragraph}`)).toBe(`x  0  ${paragraph}`);
  });

  it('is the text itself when nothing is quoted, and null for no text', () => {
    expect(strippedTextOf('Just a note.\n')).toBe('Just a note.');
    expect(strippedTextOf(null)).toBeNull();
    expect(strippedTextOf('> only quoted\n')).toBeNull();
  });
});

describe("the reply parser's faster reversal (reply-parser-patch.ts)", () => {
  it('is applied, and reverses exactly as the library did, surrogate pairs and combining marks included', async () => {
    expect(applied).toBe(true);
    // The library's own method, as published: one UTF-16 unit at a time.
    const original = (text: string) => {
      let s = '';
      for (let i = text.length; i > 0; i--) s += text.substring(i - 1, i);
      return s;
    };
    const samples = ['', 'a', 'On Tue, Nov 24 wrote:', 'é café', 'e\u0301', '😀 emoji 👍🏽', '\ud800 lone', 'x\r\n> y'];
    for (let i = 0; i < 200; i++)
      samples.push(String.fromCharCode(...Array.from({ length: i % 40 }, (_, j) => (i * 7919 + j * 104729) % 0xffff)));
    for (const text of samples) {
      expect(reverseUnits(text)).toBe(original(text));
      expect(reverseUnits(reverseUnits(text))).toBe(text);
    }
  });
});

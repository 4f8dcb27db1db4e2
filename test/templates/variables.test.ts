// renderTemplate: {{variable}} substitution in subject, HTML and text, HTML escaping, and contract
// rule 4 (a link that is exactly one variable is filled only with an http(s), mailto or tel address).
import { describe, expect, it } from 'vitest';
import { isSafeLinkUrl, renderTemplate } from '../../src/templates/index.ts';

const html = (template: string, variables: Record<string, string>) =>
  renderTemplate({ subject: '', html: template, text: null }, variables).html;

describe('substitution', () => {
  it('fills subject, html and text, with blanks inside the braces allowed', () => {
    const rendered = renderTemplate(
      {
        subject: 'Hi {{firstName}}, order {{ order.id }}',
        html: '<p>Hi {{  firstName  }}</p>',
        text: 'Hi {{firstName}}',
      },
      { firstName: 'Ada', 'order.id': 'A-1' },
    );
    expect(rendered).toEqual({ subject: 'Hi Ada, order A-1', html: '<p>Hi Ada</p>', text: 'Hi Ada' });
  });

  it('renders a variable that was not given as empty, and leaves things that are not variables alone', () => {
    const rendered = renderTemplate(
      { subject: 'Hi {{missing}}!', html: '<p>{{missing}}{ {x} } {{two words}}</p>', text: '{{missing}}|{{}}' },
      {},
    );
    expect(rendered).toEqual({ subject: 'Hi !', html: '<p>{ {x} } {{two words}}</p>', text: '|{{}}' });
  });

  it('does not treat inherited object keys as variables', () => {
    expect(renderTemplate({ subject: '{{constructor}}{{toString}}', html: null, text: null }, {}).subject).toBe('');
  });

  it('is one pass: a value holding {{x}} is not expanded again', () => {
    const rendered = renderTemplate(
      { subject: '{{a}}', html: '<p>{{a}}</p><a href="{{url}}">x</a>', text: '{{a}}' },
      { a: '{{b}}', b: 'secret', url: 'https://x.example/{{b}}' },
    );
    expect(rendered).toEqual({
      subject: '{{b}}',
      html: '<p>{{b}}</p><a href="https://x.example/{{b}}">x</a>',
      text: '{{b}}',
    });
  });

  it('keeps null parts null', () => {
    expect(renderTemplate({ subject: 'S', html: null, text: null }, { a: 'b' })).toEqual({
      subject: 'S',
      html: null,
      text: null,
    });
  });

  it('leaves the text body unescaped and the same variable filled everywhere it appears', () => {
    expect(renderTemplate({ subject: '', html: null, text: '{{n}} & {{n}} <ok>' }, { n: '<Tom & Jerry>' }).text).toBe(
      '<Tom & Jerry> & <Tom & Jerry> <ok>',
    );
  });
});

describe('escaping', () => {
  it('HTML-escapes values in text and in attributes', () => {
    expect(
      html('<p title="{{t}}">{{v}}</p>', { v: '<script>alert("x")</script> & \'q\'', t: '" onmouseover="alert(1)' }),
    ).toBe(
      '<p title="&quot; onmouseover=&quot;alert(1)">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</p>',
    );
  });

  it('re-quotes single-quoted and unquoted attribute values that hold a variable', () => {
    expect(html("<td title='{{t}}' class={{c}}>x</td>", { t: 'it\'s "q"', c: 'a onclick=alert(1)' })).toBe(
      '<td title="it&#39;s &quot;q&quot;" class="a onclick=alert(1)">x</td>',
    );
  });

  it('drops a variable standing where an attribute name would be', () => {
    expect(html('<p {{attrs}} class="x">y</p>', { attrs: 'onclick=alert(1)' })).toBe('<p  class="x">y</p>');
  });

  it('keeps a > inside a quoted attribute as part of the tag', () => {
    expect(html('<img alt="a > b" src="{{src}}">', { src: 'https://cdn.example/x.png' })).toBe(
      '<img alt="a > b" src="https://cdn.example/x.png">',
    );
  });

  it('removes line breaks from subject values (no header injection)', () => {
    expect(
      renderTemplate({ subject: 'Hi {{n}}', html: null, text: null }, { n: 'Ada\r\nBcc: victim@example.com' }).subject,
    ).toBe('Hi Ada Bcc: victim@example.com');
  });
});

describe('rule 4: a link that is exactly one variable', () => {
  const link = (value: string) => html('<a href="{{url}}">x</a>', { url: value });

  for (const accepted of [
    'https://example.com/reset?t=1&u=2',
    'http://example.com',
    'HTTPS://EXAMPLE.COM/A',
    'mailto:ada@example.com',
    'tel:+15550100',
    '  https://example.com/padded  ',
  ]) {
    it(`fills it with ${JSON.stringify(accepted)}`, () => {
      expect(link(accepted)).toBe(`<a href="${accepted.trim().replaceAll('&', '&amp;')}">x</a>`);
    });
  }

  for (const refused of [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '/relative/path',
    '//evil.example/x',
    'example.com',
    '#top',
    'https://',
    'mailto:',
    'tel:',
    '',
  ]) {
    it(`neutralises it to # for ${JSON.stringify(refused)}`, () => {
      expect(link(refused)).toBe('<a href="#">x</a>');
    });
  }

  it('neutralises it when the variable was not given', () => {
    expect(html('<a href="{{nothing}}">x</a>', {})).toBe('<a href="#">x</a>');
  });

  it('applies with blanks inside the braces and any quoting, and to src', () => {
    expect(
      html("<a href='{{ url }}'>x</a><img src={{img}}>", {
        url: 'javascript:alert(1)',
        img: 'data:image/png;base64,AA',
      }),
    ).toBe('<a href="#">x</a><img src="#">');
    expect(html("<a href=' {{ url }} '>x</a>", { url: 'https://ok.example' })).toBe(
      '<a href="https://ok.example">x</a>',
    );
  });

  it('extends to a link that begins with a variable: that value must be a safe URL', () => {
    const template = '<a href="{{baseUrl}}/reset?token={{token}}">x</a>';
    expect(html(template, { baseUrl: 'https://app.example', token: 'a&b' })).toBe(
      '<a href="https://app.example/reset?token=a&amp;b">x</a>',
    );
    expect(html(template, { baseUrl: 'javascript:alert(1)//', token: 'x' })).toBe('<a href="#">x</a>');
    // The scheme cannot be assembled from a variable and an entity-encoded colon either.
    expect(html('<a href="{{s}}&#58;alert(1)">x</a>', { s: 'javascript' })).toBe('<a href="#">x</a>');
  });

  it('fills variables after a written-out http(s), mailto or tel scheme, escaped', () => {
    expect(html('<a href="https://example.com/o/{{id}}">x</a>', { id: '1"><script>' })).toBe(
      '<a href="https://example.com/o/1&quot;&gt;&lt;script&gt;">x</a>',
    );
    expect(html('<a href="mailto:{{email}}">x</a>', { email: 'ada@example.com' })).toBe(
      '<a href="mailto:ada@example.com">x</a>',
    );
  });

  it('neutralises a URL whose variable follows anything but such a scheme', () => {
    expect(html('<a href="/path/{{id}}">x</a><a href="cid:{{c}}">y</a>', { id: '1', c: 'logo' })).toBe(
      '<a href="#">x</a><a href="#">y</a>',
    );
  });

  it('reads a tag left open to the end of the text as a tag (as a browser does)', () => {
    expect(html('<p>ok</p><a href="{{x}}" title="open', { x: 'javascript:alert(1)' })).toBe(
      '<p>ok</p><a href="#" title="open',
    );
  });

  it('leaves URLs without variables as they are', () => {
    expect(html('<a href="https://example.com/?a=1&amp;b=2">x</a>', {})).toBe(
      '<a href="https://example.com/?a=1&amp;b=2">x</a>',
    );
  });

  it('isSafeLinkUrl is the check', () => {
    expect(isSafeLinkUrl('https://example.com')).toBe(true);
    expect(isSafeLinkUrl('https://exa\nmple.com')).toBe(false);
    expect(isSafeLinkUrl('ftp://example.com')).toBe(false);
  });
});

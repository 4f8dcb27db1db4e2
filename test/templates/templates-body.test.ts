// A template's body through HTTP: the editor document (validation naming the path, rendering to
// email-safe HTML), HTML sanitised on the way in, and the unsubscribe footer of marketing templates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTemplate } from '../../src/templates/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';
import { doc, templatesClient, type Template } from './helpers.ts';

let t: TestApp;
let api: ReturnType<typeof templatesClient>;

beforeAll(async () => {
  t = await createTestApp();
  api = templatesClient(t.app, (await createTeam(t.app)).key);
});
afterAll(() => t.close());

const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { code: string; message: string } }).error;
const count = (text: string, part: string) => text.split(part).length - 1;

describe('editor document', () => {
  const everyBlock = [
    { type: 'heading', level: 1, text: 'Hello <script>alert(1)</script> {{firstName}}', align: 'center' },
    {
      type: 'paragraph',
      content: [
        'Plain & simple\nsecond line ',
        { text: 'bold', bold: true },
        ' ',
        { text: 'site', italic: true, href: 'https://example.com/?a=1&b={{id}}' },
      ],
    },
    { type: 'link', text: 'Write to us', href: 'mailto:{{supportEmail}}' },
    {
      type: 'button',
      label: 'Reset "now"',
      href: '{{resetUrl}}',
      backgroundColor: '#0a7',
      textColor: '#ffffff',
      align: 'center',
    },
    { type: 'image', src: 'https://cdn.example.com/logo.png', alt: 'Logo "Acme"', width: 120, href: 'tel:+15550100' },
    { type: 'divider', color: '#cccccc' },
    { type: 'spacer', height: 32 },
    { type: 'paragraph', size: 'small', align: 'right', content: ['Sent to {{email}}'] },
  ];

  it('renders every block to table-based HTML with inline styles and escaped text', async () => {
    const created = await api.make({ content: doc(...everyBlock) });
    const html = created.html!;
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<table role="presentation"');
    expect(html).toContain('width="600"');
    // Juice inlined the stylesheet: no <style> element, and styled elements carry style attributes.
    expect(html).not.toContain('<style');
    expect(html).toMatch(/<h1 style="[^"]*font-size: 28px/);
    expect(html).toMatch(/<p style="[^"]*font-family: Arial/);
    // Texts and attributes escaped; variables pass through for the send to fill.
    expect(html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt; {{firstName}}</h1>');
    expect(html).not.toContain('<script');
    expect(html).toContain('Plain &amp; simple<br>second line <strong>bold</strong>');
    expect(html).toContain('<a href="https://example.com/?a=1&amp;b={{id}}"');
    expect(html).toContain('<em>site</em></a>');
    expect(html).toContain('<a href="mailto:{{supportEmail}}"');
    expect(html).toMatch(
      /<td class="button-cell" bgcolor="#0a7"[^>]*><a class="button-link" href="\{\{resetUrl\}\}"[^>]*>Reset &quot;now&quot;<\/a>/,
    );
    expect(html).toMatch(
      /<a href="tel:\+15550100"[^>]*><img src="https:\/\/cdn.example.com\/logo.png" alt="Logo &quot;Acme&quot;" width="120"/,
    );
    expect(html).toContain('border-top: 1px solid #cccccc');
    expect(html).toContain('height="32"');
    expect(html).toMatch(/<p class="small" style="[^"]*font-size: 12px[^"]*">Sent to \{\{email\}\}<\/p>/);
    // A transactional template gets no footer.
    expect(html).not.toContain('unsubscribeUrl');
  });

  it('stores the validated document compactly', async () => {
    const pretty = JSON.stringify({ version: 1, blocks: [{ type: 'heading', level: 2, text: 'Hi' }] }, null, 2);
    const created = await api.make({ content: pretty });
    expect(created.content).toBe('{"version":1,"blocks":[{"type":"heading","level":2,"text":"Hi"}]}');
    expect(JSON.parse(created.content!)).toEqual(JSON.parse(pretty));
  });

  it('accepts the link forms: https with variables, mailto, tel, a variable, a variable then a path', async () => {
    for (const href of [
      'https://example.com/o/{{orderId}}',
      'http://example.com',
      'mailto:help@example.com',
      'tel:+15550100',
      '{{ ctaUrl }}',
      '{{baseUrl}}/reset?token={{token}}',
    ]) {
      const response = await api.create({
        name: 'Links',
        subject: 'Links',
        content: doc({ type: 'link', text: 'x', href }),
      });
      expect(response.statusCode, href).toBe(200);
    }
  });

  const invalid: [string, unknown, string][] = [
    ['heading level 4', doc({ type: 'heading', level: 4, text: 'x' }), 'content.blocks[0].level'],
    ['unknown block type', doc({ type: 'heading', level: 1, text: 'ok' }, { type: 'video' }), 'content.blocks[1].type'],
    ['javascript: link', doc({ type: 'link', text: 'x', href: 'javascript:alert(1)' }), 'content.blocks[0].href'],
    [
      'data: button',
      doc({ type: 'button', label: 'x', href: 'data:text/html,<script>alert(1)</script>' }),
      'content.blocks[0].href',
    ],
    [
      'relative link in a run',
      doc({ type: 'paragraph', content: ['a', { text: 'b', href: '/account' }] }),
      'content.blocks[0].content[1].href',
    ],
    [
      'variable in the middle deciding nothing but no scheme',
      doc({ type: 'link', text: 'x', href: 'javascript:{{x}}' }),
      'content.blocks[0].href',
    ],
    ['http image', doc({ type: 'image', src: 'http://cdn.example.com/a.png', alt: '' }), 'content.blocks[0].src'],
    ['variable image source', doc({ type: 'image', src: '{{img}}', alt: '' }), 'content.blocks[0].src'],
    [
      'image too wide',
      doc({ type: 'image', src: 'https://cdn.example.com/a.png', alt: '', width: 553 }),
      'content.blocks[0].width',
    ],
    [
      'bad colour',
      doc({ type: 'button', label: 'x', href: 'https://x.example', backgroundColor: 'red' }),
      'content.blocks[0].backgroundColor',
    ],
    ['spacer too tall', doc({ type: 'spacer', height: 201 }), 'content.blocks[0].height'],
    ['empty paragraph', doc({ type: 'paragraph', content: [] }), 'content.blocks[0].content'],
    ['unknown key', doc({ type: 'divider', colour: '#000' }), 'content.blocks[0]'],
    [
      'blank inside a link',
      doc({ type: 'link', text: 'x', href: 'https://example.com/a b' }),
      'content.blocks[0].href',
    ],
    ['version 2', JSON.stringify({ version: 2, blocks: [] }), 'content.version'],
    ['no blocks', JSON.stringify({ version: 1 }), 'content.blocks'],
    ['not JSON', '<p>not json</p>', 'content: is not valid JSON'],
  ];
  for (const [what, content, path] of invalid) {
    it(`refuses ${what}: 400 naming ${path}`, async () => {
      const response = await api.create({ name: 'Bad', subject: 'Bad', content });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).code).toBe('BAD_REQUEST');
      expect(errorOf(response).message).toContain(path);
    });
  }

  it('document limits at their edges: 1000 blocks, 500 runs a paragraph, 5000 runs in all, links of 2048 characters', async () => {
    const divider = { type: 'divider' };
    const paragraph = (runs: number) => ({ type: 'paragraph', content: Array.from({ length: runs }, () => 'x') });
    const link = (length: number) => ({
      type: 'link',
      text: 'x',
      href: `https://example.com/${'a'.repeat(length - 20)}`,
    });
    const cases: [string, unknown[], unknown[], string][] = [
      [
        'blocks',
        Array.from({ length: 1000 }, () => divider),
        Array.from({ length: 1001 }, () => divider),
        'content.blocks',
      ],
      ['runs in a paragraph', [paragraph(500)], [paragraph(501)], 'content.blocks[0].content'],
      [
        'runs in all',
        Array.from({ length: 10 }, () => paragraph(500)),
        [...Array.from({ length: 10 }, () => paragraph(500)), paragraph(1)],
        'content.blocks: at most 5000',
      ],
      ['link length', [link(2048)], [link(2049)], 'content.blocks[0].href'],
    ];
    for (const [what, ok, bad, path] of cases) {
      expect((await api.create({ name: 'Edge', subject: 'Edge', content: doc(...ok) })).statusCode, what).toBe(200);
      const refused = await api.create({ name: 'Edge', subject: 'Edge', content: doc(...bad) });
      expect(refused.statusCode, what).toBe(400);
      expect(errorOf(refused).message).toContain(path);
    }
  });

  it('a refused document stores nothing, on create or update', async () => {
    const client = templatesClient(t.app, (await createTeam(t.app)).key);
    expect((await client.create({ name: 'Bad', subject: 'Bad', content: doc({ type: 'nope' }) })).statusCode).toBe(400);
    expect((await client.list()).json()).toEqual([]);
    const created = await client.make({ html: '<p>Kept</p>' });
    expect((await client.patch(created.id, { name: 'Renamed', content: doc({ type: 'nope' }) })).statusCode).toBe(400);
    expect((await client.get(created.id)).json()).toEqual(created);
  });
});

describe('HTML is sanitised on the way in', () => {
  it('removes scripts, event handlers and javascript: URLs, keeps email HTML', async () => {
    const dirty =
      '<table cellpadding="0" cellspacing="0" width="100%" bgcolor="#ffffff" onmouseover="steal()">' +
      '<tr><td align="center" style="padding: 8px; color: #333">Hi {{firstName}}<script>alert(1)</script></td></tr></table>' +
      '<img src="https://cdn.example.com/a.png" alt="A" width="100" onerror="alert(1)">' +
      '<a href="javascript:alert(1)">bad</a><a href="JaVaScRiPt&#58;alert(1)">encoded</a>' +
      '<a href="https://example.com/x?a=1&amp;b=2" target="_blank">good</a><a href="{{ctaUrl}}">cta</a>' +
      '<iframe src="https://evil.example">frame</iframe><form action="https://evil.example"><input name="p"></form>' +
      '<img src="data:image/png;base64,AAAA" alt="D"><div style="width: expression(alert(1)); color: red">css</div>';
    const created = await api.make({ html: dirty });
    expect(created.html).toBe(
      '<table cellpadding="0" cellspacing="0" width="100%" bgcolor="#ffffff">' +
        '<tr><td align="center" style="padding:8px;color:#333">Hi {{firstName}}</td></tr></table>' +
        '<img src="https://cdn.example.com/a.png" alt="A" width="100" />' +
        '<a>bad</a><a>encoded</a>' +
        '<a href="https://example.com/x?a=1&amp;b=2" target="_blank">good</a><a href="{{ctaUrl}}">cta</a>' +
        '<img alt="D" /><div style="color:red">css</div>',
    );
    expect((await api.get(created.id)).json()).toMatchObject({ html: created.html, content: null });
  });

  it('keeps a whole document, inlines its <style> rules and drops the element', async () => {
    const page =
      '<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=https://evil.example">' +
      '<title>News</title><style>.lead { color: #123456; font-size: 18px }</style></head>' +
      '<body style="margin:0"><p class="lead">Lead</p></body></html>';
    const html = (await api.make({ html: page })).html!;
    expect(html.startsWith('<!DOCTYPE html><html><head><meta charset="utf-8" />')).toBe(true);
    expect(html).not.toContain('http-equiv');
    expect(html).toContain('<title>News</title>');
    expect(html).not.toContain('<style');
    expect(html).toMatch(/<p class="lead" style="color:#123456;font-size:18px">Lead<\/p>/);
  });

  it('past 100,000 characters the <style> element is removed without inlining (bounded work)', async () => {
    const page = `<html><head><style>.lead { color: #123456 }</style></head><body><p class="lead">Lead</p>${'<p>filler</p>'.repeat(8000)}</body></html>`;
    expect(page.length).toBeGreaterThan(100_000);
    const html = (await api.make({ html: page })).html!;
    expect(html).not.toContain('<style');
    expect(html).toContain('<p class="lead">Lead</p>');
  });

  it('refuses HTML with nothing left after sanitising: 400 naming html', async () => {
    const response = await api.create({
      name: 'Empty',
      subject: 'Empty',
      html: '<script>alert(1)</script><!-- note -->',
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toMatch(/^html: /);
  });
});

describe('marketing templates carry an unsubscribe footer', () => {
  it('created without a body: the default body, which is the footer', async () => {
    const created = await api.make({ type: 'MARKETING' });
    expect(created.type).toBe('MARKETING');
    const document = JSON.parse(created.content!) as {
      version: number;
      blocks: { type: string; content?: unknown[] }[];
    };
    expect(document.version).toBe(1);
    expect(document.blocks.at(-1)).toMatchObject({
      type: 'paragraph',
      content: [expect.any(String), { text: 'Unsubscribe', href: '{{unsubscribeUrl}}' }],
    });
    expect(created.html).toMatch(/<a href="\{\{unsubscribeUrl\}\}"[^>]*>Unsubscribe<\/a>/);
  });

  it('HTML without an unsubscribe link gets the footer appended', async () => {
    const created = await api.make({ type: 'MARKETING', html: '<p>Our spring sale</p>' });
    expect(created.html!.startsWith('<p>Our spring sale</p><table role="presentation"')).toBe(true);
    expect(count(created.html!, 'href="{{unsubscribeUrl}}"')).toBe(1);
  });

  it('the footer goes before </body> in a whole document', async () => {
    const created = await api.make({ type: 'MARKETING', html: '<html><body><p>Sale</p></body></html>' });
    expect(created.html).toMatch(/<p>Sale<\/p><table[^]*\{\{unsubscribeUrl\}\}[^]*<\/table><\/body><\/html>$/);
  });

  it('HTML that already links to {{unsubscribeUrl}} is kept as it is', async () => {
    const html = '<p>Sale</p><p><a href="{{ unsubscribeUrl }}">Stop these emails</a></p>';
    const created = await api.make({ type: 'MARKETING', html });
    expect(created.html).toBe(html);
  });

  it('a link to another unsubscribe page does not count: the footer is added', async () => {
    const created = await api.make({
      type: 'MARKETING',
      html: '<a href="https://example.com/unsubscribe">Unsubscribe</a>',
    });
    expect(count(created.html!, '{{unsubscribeUrl}}')).toBe(1);
  });

  it('a document without the link gets the footer blocks; one with it is kept', async () => {
    const without = await api.make({ type: 'MARKETING', content: doc({ type: 'heading', level: 1, text: 'Sale' }) });
    const blocks = (JSON.parse(without.content!) as { blocks: unknown[] }).blocks;
    expect(blocks[0]).toEqual({ type: 'heading', level: 1, text: 'Sale' });
    expect(blocks.length).toBeGreaterThan(1);
    expect(without.html).toContain('href="{{unsubscribeUrl}}"');

    const own = doc(
      { type: 'heading', level: 1, text: 'Sale' },
      { type: 'link', text: 'Leave the list', href: '{{unsubscribeUrl}}' },
    );
    const withLink = await api.make({ type: 'MARKETING', content: own });
    expect(withLink.content).toBe(own);
    expect(count(withLink.html!, '{{unsubscribeUrl}}')).toBe(1);
  });

  it('an update of a marketing body without the link gets the footer again', async () => {
    const created = await api.make({ type: 'MARKETING' });
    const updated = (await api.patch(created.id, { html: '<p>New offer</p>' })).json() as Template;
    expect(updated.html).toMatch(/^<p>New offer<\/p><table[^]*\{\{unsubscribeUrl\}\}/);
  });

  it('turning a template MARKETING: with a body the footer is added; without one the stored body must already have the link', async () => {
    const plain = await api.make({ html: '<p>Plain</p>' });
    const refused = await api.patch(plain.id, { type: 'MARKETING' });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toMatch(/^type: /);
    expect((await api.get(plain.id)).json()).toEqual(plain);

    const empty = await api.make();
    expect((await api.patch(empty.id, { type: 'MARKETING' })).statusCode).toBe(400);

    const withBody = (await api.patch(plain.id, { type: 'MARKETING', html: '<p>Plain</p>' })).json() as Template;
    expect(withBody.type).toBe('MARKETING');
    expect(withBody.html).toContain('{{unsubscribeUrl}}');

    const linked = await api.make({ html: '<p>Hi <a href="{{unsubscribeUrl}}">unsubscribe</a></p>' });
    const turned = (await api.patch(linked.id, { type: 'MARKETING' })).json() as Template;
    expect(turned).toMatchObject({ type: 'MARKETING', html: linked.html });
  });

  it('a transactional template gets no footer, and leaving MARKETING keeps the body', async () => {
    expect((await api.make({ html: '<p>Receipt</p>' })).html).toBe('<p>Receipt</p>');
    const marketing = await api.make({ type: 'MARKETING', html: '<p>News</p>' });
    const transactional = (await api.patch(marketing.id, { type: 'TRANSACTIONAL' })).json() as Template;
    expect(transactional.html).toBe(marketing.html);
  });

  it('the stored footer is filled at send time with the unsubscribe URL', async () => {
    const created = await api.make({
      type: 'MARKETING',
      subject: 'News for {{firstName}}',
      html: '<p>Hi {{firstName}}</p>',
    });
    const rendered = renderTemplate(
      { subject: created.subject, html: created.html, text: null },
      { firstName: 'Ada <3', unsubscribeUrl: 'https://mail.example.com/u/abc?t=1&s=2' },
    );
    expect(rendered.subject).toBe('News for Ada <3');
    expect(rendered.html).toContain('<p>Hi Ada &lt;3</p>');
    expect(rendered.html).toContain('href="https://mail.example.com/u/abc?t=1&amp;s=2"');
    expect(rendered.html).not.toContain('{{');
  });
});

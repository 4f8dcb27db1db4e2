// A template's editor document through HTTP: validation naming the path, limits at their edges, and
// rendering to email-safe HTML. HTML bodies and the marketing footer are in templates-html.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';
import { doc, errorOf, startTemplatesApp, templatesClient, type TemplatesClient } from './helpers.ts';

let t: TestApp;
let api: TemplatesClient;

beforeAll(async () => {
  ({ t, api } = await startTemplatesApp());
});
afterAll(() => t.close());

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

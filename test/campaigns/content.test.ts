// A campaign's `content` (useSend's editor JSON) rendered to email HTML: every node and mark, the
// escaping, variables passing through, and each refusal naming where it is. The documents are shaped
// as useSend's editor saves them (TipTap JSON, with its attrs and defaults).
import { describe, expect, it } from 'vitest';
import { renderCampaignContent } from '../../src/campaigns/content.ts';
import { ApiError } from '../../src/platform/errors.ts';

type Node = Record<string, unknown>;
const json = (...content: Node[]) => JSON.stringify({ type: 'doc', content });
const render = (...content: Node[]) => renderCampaignContent(json(...content));
const text = (value: string, ...marks: Node[]): Node => ({
  type: 'text',
  text: value,
  ...(marks.length ? { marks } : {}),
});
const paragraph = (...content: Node[]): Node => ({ type: 'paragraph', attrs: { textAlign: 'left' }, content });

async function refusal(content: string): Promise<string> {
  const error = await renderCampaignContent(content).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(400);
  expect((error as ApiError).message).toMatch(/^content: /);
  return (error as ApiError).message;
}

describe('renderCampaignContent', () => {
  it('renders paragraphs and headings in the templates frame, styles inlined, alignment kept', async () => {
    const html = await render(
      { type: 'heading', attrs: { textAlign: 'center', level: 1 }, content: [text('Welcome')] },
      { type: 'heading', attrs: { textAlign: 'left', level: 2 }, content: [text('Two')] },
      { type: 'heading', attrs: { textAlign: 'left', level: 5 }, content: [text('Five')] },
      { type: 'paragraph', attrs: { textAlign: 'right' }, content: [text('Right')] },
      { type: 'paragraph', attrs: { textAlign: 'left' } },
    );
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('width="600"');
    expect(html).not.toContain('<style');
    expect(html).toMatch(/<h1 style="[^"]*font-size: 28px[^"]*text-align: center;">Welcome<\/h1>/);
    expect(html).toMatch(/<h2 style="[^"]*font-size: 22px[^"]*">Two<\/h2>/);
    expect(html).toMatch(/<h5 style="[^"]*font-size: 18px[^"]*">Five<\/h5>/);
    expect(html).toMatch(/<p style="[^"]*text-align: right;">Right<\/p>/);
    // An empty paragraph is the editor's blank line.
    expect(html).toMatch(/<p style="[^"]*">&nbsp;<\/p>/);
  });

  it('renders every mark, the first innermost, and hard breaks', async () => {
    const html = await render(
      paragraph(
        text('b', { type: 'bold' }),
        text('i', { type: 'italic' }),
        text('u', { type: 'underline' }),
        text('s', { type: 'strike' }),
        text('c', { type: 'code' }),
        { type: 'hardBreak' },
        text('red', { type: 'textStyle', attrs: { color: '#ff0000' } }),
        text(
          'site',
          { type: 'bold' },
          { type: 'link', attrs: { href: 'https://example.com/{{id}}', target: '_blank' } },
        ),
      ),
    );
    expect(html).toContain('<strong>b</strong><em>i</em><u>u</u>');
    expect(html).toMatch(/<s style="text-decoration: line-through;">s<\/s>/);
    expect(html).toMatch(/<code style="[^"]*monospace[^"]*">c<\/code><br>/);
    expect(html).toContain('<span style="color: #ff0000;">red</span>');
    expect(html).toMatch(/<a href="https:\/\/example.com\/\{\{id\}\}" style="[^"]*"><strong>site<\/strong><\/a>/);
  });

  it('renders lists, list items, blockquotes, code blocks and rules', async () => {
    const item = (value: string): Node => ({ type: 'listItem', content: [paragraph(text(value))] });
    const html = await render(
      { type: 'bulletList', content: [item('one'), item('two')] },
      { type: 'orderedList', attrs: { start: 3 }, content: [item('three')] },
      { type: 'orderedList', attrs: { start: 1 }, content: [item('first')] },
      { type: 'blockquote', content: [paragraph(text('quoted'))] },
      { type: 'codeBlock', attrs: { language: null }, content: [text('if (a < b)\n  go();')] },
      { type: 'horizontalRule' },
    );
    expect(html).toMatch(/<ul style="[^"]*"><li style="[^"]*"><p style="[^"]*">one<\/p><\/li><li/);
    expect(html).toMatch(/<ol start="3" style="[^"]*"><li style="[^"]*"><p style="[^"]*">three<\/p><\/li><\/ol>/);
    expect(html).toMatch(/<ol style="[^"]*"><li/);
    expect(html).toMatch(
      /<blockquote style="[^"]*border-left: 4px solid[^"]*"><p style="[^"]*">quoted<\/p><\/blockquote>/,
    );
    expect(html).toMatch(/<pre style="[^"]*"><code style="[^"]*">if \(a &lt; b\)\n {2}go\(\);<\/code><\/pre>/);
    expect(html).toContain('border-top: 1px solid #e5e7eb');
  });

  it("renders useSend's button with its url, colours, border and alignment", async () => {
    const html = await render({
      type: 'button',
      attrs: {
        component: 'button',
        text: 'Shop "now"',
        url: '{{shopUrl}}',
        alignment: 'center',
        borderRadius: '8',
        borderWidth: '2',
        buttonColor: 'rgb(16, 185, 129)',
        borderColor: '#065f46',
        textColor: '#FFFFFFCC',
      },
    });
    expect(html).toMatch(/<td class="block" align="center"/);
    expect(html).toMatch(/<table [^>]*class="button" align="center">/);
    expect(html).toMatch(
      /<td class="button-cell" bgcolor="#10b981" style="background-color: rgb\(16, 185, 129\); border-radius: 8px;">/,
    );
    expect(html).toMatch(
      /<a class="button-link" href="\{\{shopUrl\}\}" style="[^"]*background-color: rgb\(16, 185, 129\); color: #FFFFFFCC; border: 2px solid #065f46; border-radius: 8px;">Shop &quot;now&quot;<\/a>/,
    );
  });

  it("renders useSend's image: https source, alt, width fitted to the column, alignment and link", async () => {
    const image = (attrs: Node): Node => ({ type: 'image', attrs: { src: 'https://cdn.example.com/a.png', ...attrs } });
    const html = await render(
      image({ alt: 'Logo "Acme"', width: 120, alignment: 'right', externalLink: 'https://acme.example/{{ref}}' }),
      image({ alt: 'image', width: '600', alignment: 'center', externalLink: null, borderRadius: '6' }),
    );
    expect(html).toMatch(
      /<a href="https:\/\/acme.example\/\{\{ref\}\}"[^>]*><img src="https:\/\/cdn.example.com\/a.png" alt="Logo &quot;Acme&quot;" width="120" style="[^"]*margin: 0 0 0 auto;/,
    );
    // useSend's default width is its 600 px column; Herald's content is 552 wide.
    expect(html).toMatch(/<img src="[^"]*" alt="image" width="552" style="[^"]*margin: 0 auto; border-radius: 6px;/);
  });

  it('renders variables as {{name}} and the unsubscribe footer, its own text or a link to {{unsubscribeUrl}}', async () => {
    const html = await render(
      paragraph(text('Hi '), { type: 'variable', attrs: { id: 'firstName', name: 'firstName', fallback: '' } }),
      { type: 'unsubscribeFooter', attrs: { component: 'unsubscribeFooter' } },
      {
        type: 'unsubscribeFooter',
        content: [text('Leave', { type: 'link', attrs: { href: '{{usesend_unsubscribe_url}}' } })],
      },
      { type: 'spacer', attrs: { height: 'lg' } },
    );
    expect(html).toMatch(/<p style="[^"]*">Hi \{\{firstName\}\}<\/p>/);
    expect(html).toMatch(/<p class="small" style="[^"]*"><a href="\{\{unsubscribeUrl\}\}"[^>]*>Unsubscribe<\/a><\/p>/);
    expect(html).toMatch(
      /<p class="small" style="[^"]*"><a href="\{\{usesend_unsubscribe_url\}\}"[^>]*>Leave<\/a><\/p>/,
    );
    expect(html).toContain('<td class="spacer" height="32"');
  });

  it('escapes text and attributes; {{variables}} pass through', async () => {
    const html = await render(
      paragraph(
        text('<script>alert(1)</script> & {{firstName}}'),
        text('x', { type: 'link', attrs: { href: 'https://example.com/?q="><script>&a={{id}}' } }),
      ),
      { type: 'image', attrs: { src: 'https://cdn.example.com/a.png', alt: '"><img src=x onerror=alert(1)>' } },
    );
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror=alert(1)>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; {{firstName}}');
    expect(html).toContain('<a href="https://example.com/?q=&quot;&gt;&lt;script&gt;&amp;a={{id}}"');
    expect(html).toContain('alt="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
  });

  const link = (href: string) => json(paragraph(text('x', { type: 'link', attrs: { href } })));
  const refused: [string, string, string][] = [
    ['invalid JSON', '{"type": "doc",', 'content: is not valid JSON'],
    [
      'a document that is not a doc',
      JSON.stringify({ type: 'paragraph', content: [] }),
      'content: must be an editor document',
    ],
    ['a doc without content', JSON.stringify({ type: 'doc' }), 'content: must be an editor document'],
    ['a javascript: link', link('javascript:alert(1)'), 'content: content[0].content[0].marks[0].attrs.href must be'],
    ['a relative link', link('/account'), 'content[0].content[0].marks[0].attrs.href'],
    [
      'an unknown node type',
      json(paragraph(text('ok')), { type: 'table', content: [] }),
      'content: node type "table" at content[1] is not rendered (paragraph, heading,',
    ],
    [
      'an unknown mark',
      json(paragraph(text('ok', { type: 'bold' }, { type: 'highlight' }))),
      'content: mark type "highlight" at content[0].content[0].marks[1] is not rendered (bold, italic,',
    ],
    ['text at the top level', json(text('loose')), 'node type "text" at content[0] is not allowed here'],
    [
      'a paragraph in a list',
      json({ type: 'bulletList', content: [paragraph()] }),
      'content[0].content[0] is not allowed here (listItem)',
    ],
    ['a node without a type', json({ content: [] }), 'content[0] must be a node'],
    ['a heading of level 7', json({ type: 'heading', attrs: { level: 7 } }), 'content[0].attrs.level'],
    ['a bad alignment', json({ type: 'paragraph', attrs: { textAlign: 'middle' } }), 'content[0].attrs.textAlign'],
    [
      'a button without a url',
      json({ type: 'button', attrs: { text: 'Go', url: '' } }),
      'content[0].attrs.url is required',
    ],
    [
      'a colour that could carry CSS',
      json({ type: 'button', attrs: { url: 'https://x.example', buttonColor: 'red; background: url(x)' } }),
      'content[0].attrs.buttonColor must be a colour',
    ],
    [
      'an http image',
      json({ type: 'image', attrs: { src: 'http://cdn.example.com/a.png' } }),
      'content[0].attrs.src must be an https://',
    ],
    [
      'a variable named oddly',
      json(paragraph({ type: 'variable', attrs: { id: 'a b' } })),
      'content[0].content[0].attrs.id',
    ],
    [
      'a variable with a fallback',
      json(paragraph({ type: 'variable', attrs: { id: 'firstName', fallback: 'there' } })),
      'content[0].content[0].attrs.fallback',
    ],
    ['a task list', json({ type: 'taskList', content: [] }), 'node type "taskList" at content[0] is not rendered'],
  ];
  for (const [what, content, message] of refused) {
    it(`refuses ${what}`, async () => {
      expect(await refusal(content)).toContain(message);
    });
  }

  it('nesting: 20 levels deep renders, 21 is refused naming the limit', async () => {
    // Blockquotes at depths 1..n-2, a paragraph at n-1, its text at n.
    const nested = (depth: number): Node => {
      let node: Node = paragraph(text('deep'));
      for (let level = 0; level < depth - 2; level++) node = { type: 'blockquote', content: [node] };
      return node;
    };
    expect(await render(nested(20))).toContain('deep');
    expect(await refusal(json(nested(21)))).toContain('nested more than 20 levels deep');
  });

  it('nodes: 10,000 render, 10,001 are refused naming the limit', async () => {
    const texts = (count: number) => paragraph(...Array.from({ length: count }, () => text('x')));
    expect(await render(texts(9_999))).toContain('xxx');
    expect(await refusal(json(texts(10_000)))).toBe('content: more than 10000 nodes (the limit)');
  });
});

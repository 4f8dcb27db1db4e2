// A template's HTML body through HTTP: sanitised on the way in, and the unsubscribe footer of marketing
// templates (added when missing, kept when present, filled at send time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTemplate } from '../../src/templates/index.ts';
import type { TestApp } from '../support/app.ts';
import { doc, errorOf, startTemplatesApp, type Template, type TemplatesClient } from './helpers.ts';

let t: TestApp;
let api: TemplatesClient;

beforeAll(async () => {
  ({ t, api } = await startTemplatesApp());
});
afterAll(() => t.close());

const count = (text: string, part: string) => text.split(part).length - 1;

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

// Templates CRUD through HTTP against the real database: fields, limits at their edges and update
// semantics. Listing is in templates-list.test.ts, tenant isolation and access in templates-access.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { errorOf, startTemplatesApp, type Template, type TemplatesClient } from './helpers.ts';

let t: TestApp;
let api: TemplatesClient;

beforeAll(async () => {
  ({ t, api } = await startTemplatesApp());
});
afterAll(() => t.close());

describe('create and read', () => {
  it('creates a template with defaults and reads it back', async () => {
    t.clock.set('2026-02-01T09:00:00.000Z');
    const response = await api.create({ name: 'Receipt', subject: 'Your receipt {{orderId}}' });
    expect(response.statusCode).toBe(200);
    const created = response.json() as Template;
    expect(created).toEqual({
      id: expect.stringMatching(/^tpl_[0-9a-z]{26}$/),
      name: 'Receipt',
      subject: 'Your receipt {{orderId}}',
      type: 'TRANSACTIONAL',
      previewText: null,
      content: null,
      html: null,
      createdAt: '2026-02-01T09:00:00.000Z',
      updatedAt: '2026-02-01T09:00:00.000Z',
    });
    const read = await api.get(created.id);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);
  });

  it('keeps every given field', async () => {
    const created = await api.make({
      name: 'Promo',
      subject: 'Sale',
      type: 'TRANSACTIONAL',
      previewText: 'Half off',
      html: '<p>Hi</p>',
    });
    expect(created).toMatchObject({
      name: 'Promo',
      subject: 'Sale',
      previewText: 'Half off',
      content: null,
      html: '<p>Hi</p>',
    });
    expect((await api.get(created.id)).json()).toEqual(created);
  });

  it('answers 404 for an id that does not exist', async () => {
    const response = await api.get('tpl_doesnotexist');
    expect(response.statusCode).toBe(404);
    expect(errorOf(response).code).toBe('NOT_FOUND');
  });
});

describe('limits at their edges', () => {
  const cases: { field: string; ok: unknown; bad: unknown }[] = [
    { field: 'name', ok: 'n'.repeat(200), bad: 'n'.repeat(201) },
    { field: 'previewText', ok: 'p'.repeat(255), bad: 'p'.repeat(256) },
    { field: 'subject', ok: 's'.repeat(998), bad: 's'.repeat(999) },
  ];
  for (const { field, ok, bad } of cases) {
    it(`${field}: at the limit 200, one past it 400 naming the field (create and update)`, async () => {
      const accepted = await api.create({ name: 'Edge', subject: 'Edge', [field]: ok });
      expect(accepted.statusCode).toBe(200);
      expect((accepted.json() as Record<string, unknown>)[field]).toBe(ok);

      const refused = await api.create({ name: 'Edge', subject: 'Edge', [field]: bad });
      expect(refused.statusCode).toBe(400);
      expect(errorOf(refused)).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining(field) });

      const id = (accepted.json() as Template).id;
      expect((await api.patch(id, { [field]: ok })).statusCode).toBe(200);
      const refusedUpdate = await api.patch(id, { [field]: bad });
      expect(refusedUpdate.statusCode).toBe(400);
      expect(errorOf(refusedUpdate).message).toContain(field);
    });
  }

  it('requires name and subject, refuses an empty subject, a subject on two lines and an unknown type', async () => {
    for (const [body, field] of [
      [{ subject: 'x' }, 'name'],
      [{ name: 'x' }, 'subject'],
      [{ name: 'x', subject: '' }, 'subject'],
      [{ name: '   ', subject: 'x' }, 'name'],
      [{ name: 'x', subject: 'Hi\r\nBcc: victim@example.com' }, 'subject'],
      [{ name: 'x', subject: 'x', type: 'NEWSLETTER' }, 'type'],
    ] as const) {
      const response = await api.create(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).message).toContain(field);
    }
  });

  it('content and html together: 400 naming both, on create and on update', async () => {
    const both = { content: JSON.stringify({ version: 1, blocks: [] }), html: '<p>x</p>' };
    const created = await api.create({ name: 'Both', subject: 'Both', ...both });
    expect(created.statusCode).toBe(400);
    expect(errorOf(created).message).toMatch(/content.*html/);
    const { id } = await api.make();
    const updated = await api.patch(id, both);
    expect(updated.statusCode).toBe(400);
    expect(errorOf(updated).message).toMatch(/content.*html/);
  });
});

describe('update', () => {
  it('changes only the fields sent, and moves updatedAt', async () => {
    t.clock.set('2026-04-01T08:00:00.000Z');
    const created = await api.make({ name: 'Orig', subject: 'S', previewText: 'P', html: '<p>Body</p>' });
    t.clock.advance(60_000);
    const response = await api.patch(created.id, { name: 'Renamed' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...created, name: 'Renamed', updatedAt: '2026-04-01T08:01:00.000Z' });
  });

  it('without content or html leaves the stored body as it was', async () => {
    const created = await api.make({ html: '<table><tr><td>Kept</td></tr></table>' });
    const updated = (
      await api.patch(created.id, { subject: 'New subject', type: 'TRANSACTIONAL', previewText: 'x' })
    ).json() as Template;
    expect(updated.html).toBe(created.html);
    expect(updated.content).toBeNull();
  });

  it('clears previewText with null', async () => {
    const created = await api.make({ previewText: 'Preview' });
    const updated = (await api.patch(created.id, { previewText: null })).json() as Template;
    expect(updated.previewText).toBeNull();
  });

  it('with an empty body changes nothing, not even updatedAt', async () => {
    const created = await api.make();
    t.clock.advance(5000);
    const response = await api.patch(created.id, {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
  });

  it('with html rewrites the body and drops the editor document', async () => {
    const created = await api.make({
      content: JSON.stringify({ version: 1, blocks: [{ type: 'heading', level: 1, text: 'Old' }] }),
    });
    expect(created.content).not.toBeNull();
    const updated = (await api.patch(created.id, { html: '<p>New body</p>' })).json() as Template;
    expect(updated.html).toBe('<p>New body</p>');
    expect(updated.content).toBeNull();
  });

  it('with content rewrites both the document and the html', async () => {
    const created = await api.make({ html: '<p>Old</p>' });
    const content = JSON.stringify({ version: 1, blocks: [{ type: 'heading', level: 2, text: 'From the editor' }] });
    const updated = (await api.patch(created.id, { content })).json() as Template;
    expect(updated.content).toBe(content);
    expect(updated.html).toContain('From the editor</h2>');
  });
});

describe('delete', () => {
  it('deletes, then the template is gone', async () => {
    const created = await api.make();
    const response = await api.remove(created.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: created.id, success: true, message: expect.any(String) });
    expect((await api.get(created.id)).statusCode).toBe(404);
    expect((await api.remove(created.id)).statusCode).toBe(404);
    expect((await api.patch(created.id, { name: 'x' })).statusCode).toBe(404);
  });
});

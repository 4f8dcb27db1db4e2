// Templates (FULL): reusable email bodies. Another team's template answers 404 like a missing one.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import { notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { assertBodyFitsMarketing, bodyFromInput, bodyGiven } from './body.ts';
import {
  deleteTemplate,
  getTemplate,
  getTemplateForUpdate,
  insertTemplate,
  listTemplates,
  updateTemplate,
} from './queries.ts';
import * as s from './schemas.ts';
import { templateView } from './view.ts';

type TemplateDeps = { db: Kysely<Database>; clock: Clock };

export function registerTemplateRoutes(app: FastifyInstance, deps: TemplateDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = deps;
  const common = { tags: ['templates'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };
  const access = { access: 'full' as const };

  api.get(
    '/v1/templates',
    {
      config: access,
      schema: {
        ...common,
        summary: 'List templates, most recently changed first',
        description: `Paged by page (1 to ${s.LIST_PAGE_MAX}, default 1) and limit (1 to ${s.LIST_LIMIT_MAX}, default 50).`,
        querystring: s.ListTemplatesQuery,
        response: { 200: s.Template.array(), ...errors },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      return (await listTemplates(db, principalOf(request).teamId, page, limit)).map(templateView);
    },
  );

  api.post(
    '/v1/templates',
    {
      config: access,
      schema: {
        ...common,
        summary: 'Create a template',
        description:
          'Give content (editor document) or html, not both. A MARKETING template always links to `{{unsubscribeUrl}}`: ' +
          'created without a body it gets the default body (the unsubscribe footer); a body without that link gets the footer appended.',
        body: s.CreateTemplateBody,
        response: { 200: s.Template, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { name, subject, type, previewText, content, html } = request.body;
      const body = await bodyFromInput(type, { content, html });
      const now = clock.now();
      const row = await insertTemplate(
        db,
        teamId,
        { id: newId('tpl_', now), name, subject, type, previewText: previewText ?? null, ...body },
        now,
      );
      return templateView(row);
    },
  );

  api.get(
    '/v1/templates/:templateId',
    {
      config: access,
      schema: {
        ...common,
        summary: 'Read a template',
        params: s.TemplateParams,
        response: { 200: s.Template, ...errors },
      },
    },
    async (request) => {
      const row = await getTemplate(db, principalOf(request).teamId, request.params.templateId);
      if (!row) throw notFound('Template');
      return templateView(row);
    },
  );

  api.patch(
    '/v1/templates/:templateId',
    {
      config: access,
      schema: {
        ...common,
        summary: 'Change a template',
        description:
          'Fields left out are unchanged; the stored body is rewritten only when content or html is sent. ' +
          'Making a template MARKETING without sending a body needs a stored body that already links to `{{unsubscribeUrl}}`.',
        params: s.TemplateParams,
        body: s.UpdateTemplateBody,
        response: { 200: s.Template, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { templateId } = request.params;
      const { content, html, ...fields } = request.body;
      const row = await db.transaction().execute(async (tx) => {
        const current = await getTemplateForUpdate(tx, teamId, templateId);
        if (!current) throw notFound('Template');
        const type = fields.type ?? current.type;
        const body = bodyGiven({ content, html }) ? await bodyFromInput(type, { content, html }) : undefined;
        if (!body && type === 'MARKETING' && current.type !== 'MARKETING') assertBodyFitsMarketing(current);
        if (!body && Object.values(fields).every((value) => value === undefined)) return current; // nothing to change
        return updateTemplate(tx, teamId, templateId, { ...fields, ...body }, clock.now());
      });
      if (!row) throw notFound('Template');
      return templateView(row);
    },
  );

  api.delete(
    '/v1/templates/:templateId',
    {
      config: access,
      schema: {
        ...common,
        summary: 'Delete a template',
        description: 'Emails already sent from the template are not affected.',
        params: s.TemplateParams,
        response: { 200: s.DeletedTemplate, ...errors },
      },
    },
    async (request) => {
      const { templateId } = request.params;
      if (!(await deleteTemplate(db, principalOf(request).teamId, templateId))) throw notFound('Template');
      return { id: templateId, success: true, message: 'Template deleted' };
    },
  );
}

// /v1/campaigns: useSend's calls (create, list, get, schedule, pause, resume, delete) and Herald's
// change (PATCH). Full access keys manage campaigns; read only keys list and read them. Another
// team's campaign, or another domain's for a key limited to one, answers 404 like a missing one.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { campaignEmailsPage } from '../emails/index.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { Secrets } from '../platform/crypto.ts';
import { notFound } from '../platform/errors.ts';
import { cursorPage, decodeCursor, encodeCursor } from '../platform/pagination.ts';
import { contactsOfEmails } from './fanout-queries.ts';
import { sendTestCopies } from './test-copies.ts';
import {
  createCampaign,
  patchCampaign,
  pauseCampaign,
  removeCampaign,
  resumeCampaign,
  scheduleCampaign,
  scopeOf,
  type LifecycleDeps,
} from './lifecycle.ts';
import { countersOf } from './counters.ts';
import { getCampaign, listCampaigns, type CampaignRow } from './queries.ts';
import * as s from './schemas.ts';
import { campaignSummaryView, campaignView } from './view.ts';

async function view(deps: LifecycleDeps, row: CampaignRow) {
  const counters = await countersOf(deps.db, row.team_id, [row.id]);
  return campaignView(row, counters.get(row.id)!);
}

export function registerCampaignRoutes(app: FastifyInstance, deps: LifecycleDeps & { secrets: Secrets }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['campaigns'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };
  const manage = { access: 'full' as const };
  const read = { access: 'campaignRead' as const };
  const params = s.CampaignParams;

  api.post(
    '/v1/campaigns',
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Create a campaign (DRAFT; scheduled at once with sendNow or scheduledAt)',
        description:
          'The from address on a verified domain of the team; the contact book, segment (of that book) and ' +
          "template must be the team's. The body (html or templateId) must link to {{unsubscribeUrl}} before it is scheduled.",
        body: s.CreateCampaignBody,
        response: { 200: s.Campaign, ...errors },
      },
    },
    async (request) => view(deps, await createCampaign(deps, principalOf(request), request.body)),
  );

  api.get(
    '/v1/campaigns',
    {
      config: read,
      schema: {
        ...common,
        summary: `List campaigns, newest first, ${s.PAGE_SIZE} a page`,
        querystring: s.ListQuery,
        response: { 200: s.CampaignList, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { page, status, search } = request.query;
      const { rows, total } = await listCampaigns(deps.db, scopeOf(principal), { status, search }, page, s.PAGE_SIZE);
      const counters = await countersOf(
        deps.db,
        principal.teamId,
        rows.map((row) => row.id),
      );
      return {
        campaigns: rows.map((row) => campaignSummaryView(row, counters.get(row.id)!)),
        totalPage: Math.ceil(total / s.PAGE_SIZE),
      };
    },
  );

  api.get(
    '/v1/campaigns/:id',
    {
      config: read,
      schema: { ...common, summary: 'Get a campaign', params, response: { 200: s.Campaign, ...errors } },
    },
    async (request) => {
      const row = await getCampaign(deps.db, scopeOf(principalOf(request)), request.params.id);
      if (!row) throw notFound('Campaign');
      return view(deps, row);
    },
  );

  api.get(
    '/v1/campaigns/:id/recipients',
    {
      config: read,
      schema: {
        ...common,
        summary: "A campaign's recipients and their emails, newest first (Herald)",
        description: `limit 1 to ${s.RECIPIENTS_LIMIT_MAX} (default ${s.RECIPIENTS_LIMIT_DEFAULT}); status filters by the email's latestStatus; pass nextCursor back as cursor.`,
        params,
        querystring: s.RecipientsQuery,
        response: { 200: s.RecipientList, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      const campaign = await getCampaign(deps.db, scopeOf(principal), request.params.id);
      if (!campaign) throw notFound('Campaign');
      const { status, cursor, limit } = request.query;
      const list = `campaign-recipients:${campaign.id}`;
      const position = cursor === undefined ? undefined : decodeCursor(deps.secrets, cursor, list, teamId);
      const after = position === undefined ? undefined : ([String(position[0]), String(position[1])] as const);
      const emails = await campaignEmailsPage(deps.db, teamId, campaign.id, { status, after, limit: limit + 1 });
      const page = cursorPage(emails, limit, (last) =>
        encodeCursor(deps.secrets, list, teamId, [last.created_at.toISOString(), last.id]),
      );
      const contacts = await contactsOfEmails(
        deps.db,
        campaign.id,
        page.data.map((email) => email.id),
      );
      return {
        data: page.data.map((email) => ({
          emailId: email.id,
          contactId: contacts.get(email.id)!,
          email: email.to,
          status: email.status,
          updatedAt: email.updated_at.toISOString(),
        })),
        nextCursor: page.nextCursor,
      };
    },
  );

  api.post(
    '/v1/campaigns/:id/test',
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Send test copies of a campaign (Herald)',
        description: `One copy to each of 1 to ${s.TEST_ADDRESSES_MAX} addresses, "[Test]" before the subject, header X-Herald-Test; not a campaign email (counted in no statistic).`,
        params,
        body: s.TestBody,
        response: { 200: s.TestResult, ...errors },
      },
    },
    async (request) => {
      const { to } = request.body;
      const ids = await sendTestCopies(deps, principalOf(request), request.params.id, to);
      return { data: ids.map((emailId, i) => ({ emailId, to: to[i]! })) };
    },
  );

  api.patch(
    '/v1/campaigns/:id',
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Change a DRAFT campaign (Herald)',
        description: 'Fields left out are unchanged; a campaign that is not DRAFT answers 400.',
        params,
        body: s.PatchCampaignBody,
        response: { 200: s.Campaign, ...errors },
      },
    },
    async (request) => view(deps, await patchCampaign(deps, principalOf(request), request.params.id, request.body)),
  );

  const statusCall = (path: string, summary: string, body: typeof s.ScheduleBody | undefined, description: string) => ({
    path,
    schema: { ...common, summary, description, params, ...(body && { body }), response: { 200: s.Success, ...errors } },
  });

  const schedule = statusCall(
    '/v1/campaigns/:id/schedule',
    'Schedule a campaign',
    s.ScheduleBody,
    'A DRAFT campaign, or a SCHEDULED one moved to another time; no scheduledAt: now. 400 once it has started.',
  );
  api.post(schedule.path, { config: manage, schema: schedule.schema }, async (request) => {
    await scheduleCampaign(deps, principalOf(request), request.params.id, request.body ?? {});
    return { success: true as const };
  });

  const changes = [
    ['pause', 'Pause a campaign', 'A SCHEDULED or RUNNING campaign (or one paused for the quota).', pauseCampaign],
    [
      'resume',
      'Resume a paused campaign',
      'It goes on where it stopped (or waits for its time if it had not started).',
      resumeCampaign,
    ],
  ] as const;
  for (const [action, summary, description, change] of changes) {
    const call = statusCall(`/v1/campaigns/:id/${action}`, summary, undefined, description);
    api.post(call.path, { config: manage, schema: call.schema }, async (request) => {
      await change(deps, principalOf(request), request.params.id);
      return { success: true as const };
    });
  }

  api.delete(
    '/v1/campaigns/:id',
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Delete a campaign',
        description: 'A RUNNING campaign is refused (400): pause it first.',
        params,
        response: { 200: s.Campaign, ...errors },
      },
    },
    async (request) => {
      const { row, counters } = await removeCampaign(deps, principalOf(request), request.params.id);
      return campaignView(row, counters);
    },
  );
}

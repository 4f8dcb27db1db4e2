// SMS: send (charged to the wallet), list, read one. Another team's message answers 404 like a missing one.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../platform/auth/plugin.ts';
import { notFound } from '../platform/errors.ts';
import { cursorPage, decodeCursor, encodeCursor } from '../platform/pagination.ts';
import { getSms, listSms } from './queries.ts';
import * as s from './schemas.ts';
import { sendSms, type SmsSendDeps } from './send.ts';
import { smsView } from './view.ts';

const LIST = 'sms';

const sendDescription =
  'to: E.164 (+ then 2 to 15 digits, no spaces or dashes), valid for its country. text: 1 to 1,600 characters, billed per ' +
  'segment: GSM-7 160 characters in one part, 153 per part when longer (extension characters count two); anything else ' +
  '70 and 67. The charge (segments × the price for the destination in the team currency, rounded half away from zero to ' +
  'the minor unit) is taken from the wallet when the message is queued: 402 with nothing stored when the wallet cannot ' +
  'cover it, returned if the provider refuses the message (status rejected). 403 when SMS is off for the team or the ' +
  'deployment does not send to the destination country. 422 RISK_REFUSED (with `risk`) for premium-rate numbers and ' +
  'bursts that look like SMS pumping.';

export function registerSmsRoutes(app: FastifyInstance, deps: SmsSendDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['sms'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };

  api.post(
    '/v1/sms',
    {
      config: { access: 'send', idempotent: true },
      schema: {
        ...common,
        summary: 'Send an SMS charged to the team wallet',
        description: sendDescription,
        body: s.SendSmsBody,
        response: { 201: s.SmsMessage, ...errors, 402: s.ErrorBody, 409: s.ErrorBody, 422: s.RiskBody },
      },
    },
    async (request, reply) => {
      const row = await sendSms(deps, principalOf(request), request.body);
      return reply.code(201).send(smsView(row));
    },
  );

  api.get(
    '/v1/sms',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'List SMS messages, newest first',
        description: `limit 1 to ${s.LIST_LIMIT_MAX} (default ${s.LIST_LIMIT_DEFAULT}); status filters on one status; pass nextCursor back as cursor.`,
        querystring: s.ListSmsQuery,
        response: { 200: s.SmsList, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { cursor, limit, status } = request.query;
      // The cursor names the status filter too: a cursor of another filter is another list.
      const list = `${LIST}:${status ?? ''}`;
      const position = cursor === undefined ? undefined : decodeCursor(deps.secrets, cursor, list, teamId);
      const after =
        position === undefined ? undefined : { createdAt: new Date(String(position[0])), id: String(position[1]) };
      const rows = await listSms(deps.db, teamId, { status, after, limit: limit + 1 });
      const page = cursorPage(rows, limit, (last) =>
        encodeCursor(deps.secrets, list, teamId, [last.created_at.toISOString(), last.id]),
      );
      return { data: page.data.map(smsView), nextCursor: page.nextCursor };
    },
  );

  api.get(
    '/v1/sms/:id',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Read one SMS message',
        params: s.SmsIdParams,
        response: { 200: s.SmsMessage, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const row = await getSms(deps.db, teamId, request.params.id);
      if (row === undefined) throw notFound('SMS message');
      return smsView(row);
    },
  );
}

// One-time codes: send, check, read (the list: list-routes.ts). All at the SEND access level;
// another team's verification answers 404 like a missing one. No response, log line or event carries a code.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../platform/auth/plugin.ts';
import { notFound } from '../platform/errors.ts';
import { checkVerification } from './check.ts';
import { registerVerifyListRoute } from './list-routes.ts';
import { getVerification } from './queries.ts';
import * as s from './schemas.ts';
import { sendEmailCode } from './send-email.ts';
import { sendSmsCode } from './send-sms.ts';
import type { VerifyDeps } from './send.ts';
import { deliveryOf, verificationView } from './view.ts';

const sendDescription =
  'Creates a code (codeLength 4 to 8 digits, default 6; expiresIn 60 to 1800 s, default 600) and sends it. ' +
  'email (default): `to` an email address; from on a verified domain of the team (default no-reply@ its first ' +
  'verified domain); the built-in message or templateId (a template using {{code}}, {{appName}}, {{expiresMinutes}}). ' +
  'sms: `to` E.164, appName required, charged to the wallet (402 when it cannot pay, nothing sent); from, subject and ' +
  'templateId answer 400. Every request is scored for risk first: HIGH answers 422 RISK_REFUSED with `risk` and the ' +
  'id of the stored refusal (no code exists). 429 past 5 codes per recipient per 10 minutes (also per client IP and ' +
  'number prefix), with Retry-After.';

const checkDescription =
  'In order: refused → reason refused; verified → already_used; past expiresAt → expired; no attempts left → ' +
  'too_many_attempts; wrong → wrong_code and one attempt fewer (5 in all; status failed at zero); right → verified. ' +
  'Only a wrong guess costs an attempt.';

export function registerVerifyRoutes(app: FastifyInstance, deps: VerifyDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['verify'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody };

  api.post(
    '/v1/verify/send',
    {
      config: { access: 'send' },
      schema: {
        ...common,
        summary: 'Send a one-time code by email or SMS',
        description: sendDescription,
        body: s.SendVerificationBody,
        response: { 201: s.Verification, ...errors, 402: s.ErrorBody, 422: s.RiskRefusedBody, 429: s.ErrorBody },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const send = request.body.channel === 'sms' ? sendSmsCode : sendEmailCode;
      const { row, delivery } = await send(deps, principal, request.body);
      return reply.code(201).send(verificationView(row, delivery));
    },
  );

  api.post(
    '/v1/verify/check',
    {
      config: { access: 'send' },
      schema: {
        ...common,
        summary: 'Check the code a user typed',
        description: checkDescription,
        body: s.CheckVerificationBody,
        response: { 200: s.Verification, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { row, reason } = await checkVerification(deps, teamId, request.body);
      const delivery = row.sms_id === null ? null : deliveryOf((await getVerification(deps.db, teamId, row.id))!);
      return verificationView(row, delivery, reason);
    },
  );

  api.get(
    '/v1/verify/:id',
    {
      config: { access: 'send' },
      schema: {
        ...common,
        summary: 'Read a verification without changing it',
        params: s.VerificationParams,
        response: { 200: s.Verification, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const row = await getVerification(deps.db, teamId, request.params.id);
      if (row === undefined) throw notFound('Verification');
      return verificationView(row, deliveryOf(row));
    },
  );

  registerVerifyListRoute(app, deps);
}

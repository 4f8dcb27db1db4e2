// Admin API (operator.md): teams, members, API keys and the outbox, behind HERALD_ADMIN_TOKEN.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AdminDeps } from './admin-deps.ts';
import type { Member as MemberRow, Team as TeamRow } from '../db/schema.ts';
import { domainExists } from '../domains/index.ts';
import { listOutbox } from '../emails/outbox-queries.ts';
import { safeEqual } from '../platform/crypto.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import {
  addMember,
  createApiKey,
  createTeam,
  deleteApiKey,
  getMember,
  listApiKeys,
  listMembers,
  setMemberRole,
  updateTeam,
} from '../accounts/index.ts';
import { registerContactImportRoute } from './contacts-import.ts';
import { registerSuppressionRoutes } from './suppressions-routes.ts';
import { registerSmsAdminRoutes } from './sms-routes.ts';
import { registerDestinationAdminRoutes } from './destinations-routes.ts';
import { registerRetentionAdminRoutes } from './retention-routes.ts';
import { outboxMessageView, registerMailAdminRoutes } from './mail-routes.ts';
import { registerWalletRoutes } from './wallet-routes.ts';
import { registerInboxAdminRoutes } from './inbox-routes.ts';
import { registerInboundAdminRoutes } from './inbound-routes.ts';
import { registerSignInLinkRoutes } from './sign-in-link-routes.ts';
import { registerWebhookTailAdminRoutes } from './webhook-tail-routes.ts';
import { getWallet } from '../wallet/index.ts';
import { setPlanAndBillingMethod } from '../billing/index.ts';
import * as s from './schemas.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE, requireTeam } from './route-kit.ts';

function teamView(team: TeamRow) {
  return {
    id: team.id,
    name: team.name,
    plan: team.plan,
    currency: team.currency,
    smsEnabled: team.sms_enabled,
    apiRateLimit: team.api_rate_limit,
    stripeCustomerId: team.stripe_customer_id,
    billingMethod: team.billing_method,
    createdAt: team.created_at.toISOString(),
  };
}

const memberView = (m: MemberRow) => ({ id: m.id, email: m.email, name: m.name, role: m.role });

function checkAdminToken(expected: string | null, request: FastifyRequest): void {
  if (expected === null) {
    throw new ApiError(404, 'NOT_FOUND', 'The admin API is off: set HERALD_ADMIN_TOKEN to turn it on');
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match || !safeEqual(match[1]!, expected))
    throw new ApiError(401, 'UNAUTHORIZED', 'Admin token missing or not valid');
}

export function registerAdminRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const admin = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = deps;
  admin.addHook('onRequest', async (request) => checkAdminToken(deps.adminToken, request));
  const common = ADMIN_ROUTE;
  const errors = ADMIN_ERRORS;

  registerContactImportRoute(admin, deps);
  registerSuppressionRoutes(admin, deps);
  registerSmsAdminRoutes(admin, deps);
  registerMailAdminRoutes(admin, deps);
  registerDestinationAdminRoutes(admin, deps);
  registerRetentionAdminRoutes(admin, deps);
  registerWalletRoutes(admin, deps);
  registerInboxAdminRoutes(admin, deps);
  registerInboundAdminRoutes(admin, deps);
  registerSignInLinkRoutes(admin, deps);
  registerWebhookTailAdminRoutes(admin, deps);

  admin.post(
    '/teams',
    { schema: { ...common, summary: 'Create a team', body: s.CreateTeamBody, response: { 201: s.Team, ...errors } } },
    async (request, reply) => {
      const team = await createTeam(db, { ...request.body, plan: request.body.plan ?? deps.defaultPlan }, clock.now());
      return reply.code(201).send(teamView(team));
    },
  );

  admin.get(
    '/teams/:teamId',
    { schema: { ...common, summary: 'Read a team', params: s.TeamParams, response: { 200: s.Team, ...errors } } },
    async (request) => teamView(await requireTeam(db, request.params.teamId)),
  );

  admin.patch(
    '/teams/:teamId',
    {
      schema: {
        ...common,
        summary: 'Change a team',
        params: s.TeamParams,
        body: s.UpdateTeamBody,
        response: { 200: s.Team, ...errors },
      },
    },
    async (request) => {
      const { currency } = request.body;
      const wallet = currency === undefined ? undefined : await getWallet(db, request.params.teamId);
      // The ledger is in one currency: amounts are never converted.
      if (wallet && wallet.currency !== currency) {
        throw new ApiError(
          400,
          'BAD_REQUEST',
          `currency: the team's wallet holds ${wallet.currency} and cannot change`,
        );
      }
      const { billingMethod, ...changes } = request.body;
      // First, so that a wallet that cannot pay the first Pro month (402) leaves the team unchanged. A
      // plan change alone goes through it too: on the wallet, becoming Pro pays, leaving Pro stops.
      if (billingMethod !== undefined || changes.plan !== undefined) {
        await setPlanAndBillingMethod(
          db,
          request.params.teamId,
          { method: billingMethod, plan: changes.plan },
          deps.prices,
          clock.now(),
        );
      }
      const team = await updateTeam(db, request.params.teamId, changes, clock.now());
      if (!team) throw notFound('team');
      deps.principals.invalidateTeam(team.id);
      return teamView(team);
    },
  );

  admin.get(
    '/teams/:teamId/members',
    {
      schema: {
        ...common,
        summary: "List a team's members",
        params: s.TeamParams,
        response: { 200: s.Member.array(), ...errors },
      },
    },
    async (request) => {
      await requireTeam(db, request.params.teamId);
      return (await listMembers(db, request.params.teamId)).map(memberView);
    },
  );

  admin.post(
    '/teams/:teamId/members',
    {
      schema: {
        ...common,
        summary: 'Add a member',
        params: s.TeamParams,
        body: s.CreateMemberBody,
        response: { 201: s.Member, 409: s.AdminError, ...errors },
      },
    },
    async (request, reply) => {
      await requireTeam(db, request.params.teamId);
      try {
        const member = await addMember(db, request.params.teamId, request.body, clock.now());
        return reply.code(201).send(memberView(member));
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError(409, 'CONFLICT', 'email is already a member of this team');
        throw error;
      }
    },
  );

  admin.patch(
    '/teams/:teamId/members/:memberId',
    {
      schema: {
        ...common,
        summary: "Change a member's role",
        params: s.MemberParams,
        body: s.UpdateMemberBody,
        response: { 200: s.Member, ...errors },
      },
    },
    async (request) => {
      const member = await setMemberRole(
        db,
        request.params.teamId,
        request.params.memberId,
        request.body.role,
        clock.now(),
      );
      if (!member) throw notFound('member');
      deps.principals.invalidateTeam(member.team_id); // takes effect at once for keys the member made
      return memberView(member);
    },
  );

  admin.get(
    '/teams/:teamId/api-keys',
    {
      schema: {
        ...common,
        summary: "List a team's API keys (never the keys themselves)",
        params: s.TeamParams,
        response: { 200: s.KeySummary.array(), ...errors },
      },
    },
    async (request) => {
      await requireTeam(db, request.params.teamId);
      return (await listApiKeys(db, request.params.teamId)).map((k) => ({
        id: k.id,
        kind: k.kind,
        name: k.name,
        memberId: k.member_id,
        domainId: k.domain_id,
        hint: k.key_hint,
        createdAt: k.created_at.toISOString(),
      }));
    },
  );

  admin.post(
    '/teams/:teamId/api-keys',
    {
      schema: {
        ...common,
        summary: 'Create an API key (shown once)',
        params: s.TeamParams,
        body: s.CreateKeyBody,
        response: { 201: s.CreatedKey, ...errors },
      },
    },
    async (request, reply) => {
      const { teamId } = request.params;
      await requireTeam(db, teamId);
      const { memberId, domainId } = request.body;
      if (memberId !== undefined && !(await getMember(db, teamId, memberId))) throw notFound('member');
      if (domainId !== undefined && !(await domainExists(db, teamId, domainId))) throw notFound('domain');
      const created = await createApiKey(db, deps.secrets, teamId, request.body);
      return reply
        .code(201)
        .send({ ...created, name: request.body.name ?? null, memberId: memberId ?? null, domainId: domainId ?? null });
    },
  );

  admin.delete(
    '/teams/:teamId/api-keys/:keyId',
    {
      schema: {
        ...common,
        summary: 'Delete an API key; it stops working at once',
        params: s.KeyParams,
        response: { 200: s.DeletedKey, ...errors },
      },
    },
    async (request) => {
      const { teamId, keyId } = request.params;
      if (!(await deleteApiKey(db, teamId, keyId))) throw notFound('API key');
      deps.principals.invalidateTeam(teamId);
      return { id: keyId, deleted: true as const };
    },
  );

  // What HERALD_MAIL_TRANSPORT=log kept instead of sending (operator.md: herald admin outbox).
  admin.get(
    '/outbox',
    {
      schema: {
        ...common,
        summary: 'List messages the log transport stored, newest first',
        querystring: s.OutboxQuery,
        response: { 200: s.OutboxMessage.array(), ...errors },
      },
    },
    async (request) => {
      const rows = await listOutbox(db, request.query.teamId ?? null, request.query.limit);
      return rows.map(outboxMessageView);
    },
  );
}

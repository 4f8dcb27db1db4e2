// PUT /v1/session/plan (issue 45): a signed-in team admin moves the team between free and Pro from
// the dashboard, through billing's one plan-change path (setPlanAndBillingMethod, the one the admin
// API's PATCH /teams/{id} takes): Pro from the wallet pays its first month now (402 and nothing
// changes when the wallet is short); free takes effect at once and ends the Pro months paid from the
// wallet (a STOPPED row: the rest of a paid month is not refunded, and Pro again later pays a new
// month from that day). Pro by card answers 202 with a Stripe Checkout URL and changes nothing yet:
// Stripe's signed event makes the team Pro (billing/card-checkout.ts). A team already billed by card
// is left to the operator and Stripe (its subscription is not cancelled from here).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { teamBillingColumns } from '../accounts/index.ts';
import { setPlanAndBillingMethod, startCardCheckout } from '../billing/index.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import { badRequest, notFound } from '../platform/errors.ts';
import { currentSession, SESSION_ERRORS, SESSION_ROUTE, type SessionRouteDeps } from './route-kit.ts';
import * as s from './schemas.ts';
import { sessionBody } from './session-view.ts';

export function registerPlanRoute(app: FastifyInstance, deps: SessionRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, secrets, instance, prices } = deps;

  api.put(
    '/v1/session/plan',
    {
      config: { access: 'sessionAdmin' },
      schema: {
        ...SESSION_ROUTE,
        summary: "Change the team's plan: free, or Pro paid from the wallet or by card (dashboard, team admins)",
        description:
          'Only with the session cookie of an owner or admin of the team (an API key: 403 SCOPE_DENIED; a member: 403 ' +
          'FORBIDDEN). `{plan: "pro", method: "wallet"}` pays the first month from the wallet now (402 when it cannot) ' +
          'and answers the session with the new plan; `{plan: "free"}` drops to free at once, the rest of a paid month ' +
          'not refunded. `{plan: "pro", method: "card"}` answers 202 `{checkoutUrl}`, a Stripe Checkout for the monthly ' +
          "Pro subscription; the team becomes Pro when Stripe's signed event (POST /hooks/stripe) says it completed. " +
          'Card needs HERALD_STRIPE_SECRET_KEY and HERALD_STRIPE_WEBHOOK_SECRET (400 naming the one unset); 503 when ' +
          'Stripe cannot be reached. A team the operator bills by card: 400.',
        body: s.PlanChangeBody,
        response: { 200: s.Session, 202: s.CardCheckout, 402: s.ErrorBody, 503: s.ErrorBody, ...SESSION_ERRORS },
      },
    },
    async (request, reply) => {
      const { teamId } = principalOf(request);
      const { plan, method } = request.body;
      if (plan === 'pro' && method === undefined) throw badRequest('method: required to move to pro: wallet or card');
      const session = await currentSession(db, request);
      const team = await teamBillingColumns(db, teamId);
      if (!team) throw notFound('Team');
      if (team.billing_method === 'card')
        throw badRequest('plan: this team pays by card (Stripe); its plan is changed by the operator');
      if (plan === 'pro' && method === 'card') {
        const checkout = await startCardCheckout(
          {
            db,
            prices,
            stripe: deps.stripe,
            publicUrl: instance.publicUrl,
            now: () => clock.now(),
            log: request.log,
          },
          teamId,
        );
        return reply.code(202).send(checkout);
      }
      const change = plan === 'pro' ? { plan, method: 'wallet' as const } : { plan, method: undefined };
      await setPlanAndBillingMethod(db, teamId, change, prices, clock.now());
      return sessionBody(db, { secrets, instance }, session, teamId);
    },
  );
}

// buildApp(deps): Fastify with the platform plugins and every area's routes (the base every Herald
// HTTP app shares: http-app.ts).
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { adminDepsOf } from './admin/admin-deps.ts';
import { registerAdminRoutes } from './admin/routes.ts';
import { createHttpApp, registerAreaHooks } from './http-app.ts';
export { BODY_LIMIT_BYTES } from './http-app.ts';
import type { Deps } from './deps.ts';
import { registerAuth, requireDeclaredAccess } from './platform/auth/plugin.ts';
import { registerHealth } from './platform/health.ts';
import { registerIdempotency } from './platform/idempotency.ts';
import { recordHttpMetrics, serveMetrics } from './platform/metrics.ts';
import { registerOpenApi, registerOpenApiRoutes } from './platform/openapi.ts';
import { registerDashboard } from './web/serve.ts';
import { registerApiKeyRoutes, registerWhoami } from './accounts/index.ts';
import { registerSuppressionRoutes } from './feedback/index.ts';
import { queueTeamNotice } from './notices/index.ts';
import { registerDomainRoutes } from './domains/routes.ts';
import { registerTemplateRoutes } from './templates/routes.ts';
import { registerEmailRoutes } from './emails/routes.ts';
import { sendBatching, trackingEventWriters } from './emails/index.ts';
import { registerSegmentRoutes } from './segments/routes.ts';
import { registerAnalyticsRoutes } from './analytics/routes.ts';
import { registerContactsArea } from './contacts/index.ts';
import { registerWebhookRoutes } from './webhooks/routes.ts';
import { webhookEventsOpenApi } from './webhooks/index.ts';
import { contactLinkRoutes } from './contacts/unsubscribe-routes.ts';
import { registerTrackingRoutes } from './tracking/index.ts';
import { registerSmsRoutes, smsCallbackRoutes, smsSendDeps } from './sms/index.ts';
import { registerVerifyRoutes, verifyDeps } from './verify/index.ts';
import { auditChange, billingParts, registerBillingRoutes, stripeHookRoutes } from './billing/index.ts';
import { registerJourneyRoutes } from './journeys/index.ts';
import { registerCampaignRoutes } from './campaigns/index.ts';
import { domainIdsWithInboxes, registerAttachmentRoutes, registerInboundRoutes } from './inboxes/index.ts';
import { queueSignIn, registerSessionRoutes, sessionPrincipals } from './sessions/index.ts';
import { registerMemberRoutes } from './accounts/member-routes.ts';

interface BuildAppOptions {
  /** Extra routes under the API prefix (tests use this for access-policy probes). */
  extraRoutes?: FastifyPluginAsync;
  /** The built dashboard (web/dist by default); tests point it elsewhere. */
  dashboardDir?: string;
}

export async function buildApp(deps: Deps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = createHttpApp(deps);
  // The card processor client and its per-team cache, shared by the billing reads and /hooks/stripe.
  const billing = billingParts(deps.config.stripe, deps.clock);
  registerAreaHooks();
  await registerOpenApi(app, deps.config, webhookEventsOpenApi());
  recordHttpMetrics(app, deps.metrics);
  // HERALD_METRICS_PORT set: /metrics is served there only, off the public listener (services.ts).
  if (deps.config.metricsPort === null) serveMetrics(app, deps.metrics);
  // Each part gets only the fields it uses (its own narrow dependencies), never the whole deps.
  const { db, reads, clock, secrets, rateLimiter, logger, principals, metrics, announcer, blobs, config } = deps;
  // A dashboard session's cookie stands for a full access key made by its member (src/sessions/).
  const sessions = { principals: sessionPrincipals({ db, clock, secrets }), secrets, publicUrl: config.publicUrl };
  registerAuth(app, { principals, rateLimiter, sessions });
  registerIdempotency(app, { db, clock });
  registerHealth(app, db, deps.database);
  // The dashboard at / (web/dist), before the routes below: it learns from them which paths are the server's.
  await registerDashboard(app, { apiPrefix: deps.config.apiPrefix, distDir: options.dashboardDir });

  // Concurrent email sends of this process (the emails API and one-time codes) share one transaction.
  const emailSending = sendBatching(db);
  await app.register(
    async (api) => {
      requireDeclaredAccess(api);
      registerOpenApiRoutes(api);
      registerWhoami(api);
      // Key changes email the owners and admins and enter the audit log: both areas import accounts.
      registerApiKeyRoutes(api, {
        db,
        clock,
        secrets,
        principals,
        writers: { teamNotice: queueTeamNotice, auditChange },
      });
      // An invite queues the sign-in email (sessions) and its audit entry (billing) in its own
      // transaction: both areas import accounts.
      const signInDeps = { secrets, publicUrl: config.publicUrl };
      registerMemberRoutes(api, {
        db,
        clock,
        rateLimiter,
        principals,
        writers: {
          auditChange,
          signInMail: (tx, email, now, invite) => queueSignIn(tx, signInDeps, email, now, invite),
        },
      });
      registerSuppressionRoutes(api, { db, clock, secrets });
      registerDomainRoutes(api, { db, clock, secrets, mailDomain: deps.config.mailDomain, domainIdsWithInboxes });
      registerTemplateRoutes(api, { db, clock });
      registerEmailRoutes(
        api,
        {
          db,
          reads,
          clock,
          announcer,
          config: { mailDomain: config.mailDomain },
          eventsDays: config.retention.eventsDays,
        },
        emailSending,
      );
      registerSegmentRoutes(api, { db, reads, clock, secrets });
      registerAnalyticsRoutes(api, { db: reads, clock });
      registerContactsArea(api, { db, reads, clock });
      const { prices, billingReadTimeoutMs: readTimeoutMs } = deps.config;
      registerBillingRoutes(
        api,
        { db, reads, clock, secrets, logger, rateLimiter, principals, prices, readTimeoutMs },
        billing,
      );
      registerWebhookRoutes(api, {
        db,
        clock,
        secrets,
        rateLimiter,
        dns: deps.dns,
        webhookAllowCidrs: deps.config.webhookAllowCidrs,
      });
      registerSmsRoutes(api, smsSendDeps({ db, clock, secrets, announcer, config }, { batched: true }));
      registerVerifyRoutes(api, verifyDeps({ db, clock, secrets, announcer, rateLimiter, config }, emailSending));
      registerJourneyRoutes(api, { db, clock, secrets });
      registerCampaignRoutes(api, { db, clock, secrets });
      registerInboundRoutes(api, { db, clock, secrets, blobs, publicUrl: config.publicUrl });
      registerSessionRoutes(api, {
        db,
        clock,
        secrets,
        rateLimiter,
        logger,
        prices: config.prices,
        stripe: config.stripe,
        instance: {
          mailDomain: config.mailDomain,
          mailTransport: config.mailTransport.kind,
          publicUrl: config.publicUrl,
          apiPrefix: config.apiPrefix,
        },
      });
      if (options.extraRoutes) await api.register(options.extraRoutes);
    },
    { prefix: deps.config.apiPrefix },
  );
  await app.register(async (admin) => registerAdminRoutes(admin, adminDepsOf(deps)), { prefix: '/admin/v1' });
  // Public pages behind signed links (unsubscribe, double opt-in confirmation): no API key, no prefix.
  await app.register(contactLinkRoutes({ db, clock, secrets, metrics }));
  // Open pixel and click redirects (/t/...); their events written by the tracking writers.
  await app.register(async (scope) =>
    registerTrackingRoutes(scope, { clock, secrets }, trackingEventWriters({ db, logger })),
  );
  // SMS providers' delivery reports (/hooks/sms/...).
  await app.register(smsCallbackRoutes({ db, clock, smsProvider: deps.smsProvider, publicUrl: deps.config.publicUrl }));
  // Stripe events (/hooks/stripe): refresh what the billing reads keep for a customer's team.
  await app.register(
    stripeHookRoutes({
      db,
      clock,
      webhookSecret: deps.config.stripe.webhookSecret,
      cache: billing.cache,
      prices: deps.config.prices,
    }),
  );
  // Attachments of received messages behind signed links (/inbound/attachments/...).
  await app.register(async (scope) => registerAttachmentRoutes(scope, { db, clock, secrets, blobs }));
  return app;
}

// Double opt-in confirmation pages: GET shows a confirm button and changes nothing (link scanners
// follow GETs), POST confirms. Registered by contactLinkRoutes (unsubscribe-routes.ts).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CONFIRMATION_PATH, confirmationExpired, readConfirmationToken } from './confirmation-links.ts';
import { confirmContact, confirmationState } from './confirmation-queries.ts';
import {
  LINK_BODY_LIMIT,
  TokenParams,
  invalidLinkPage,
  linkActionCounter,
  sendPage,
  type LinkDeps,
  type Page,
} from './unsubscribe-pages.ts';

const confirmedPage: Page = { title: 'Subscription confirmed', message: 'Thank you: your subscription is confirmed.' };
const expiredPage: Page = {
  title: 'Link expired',
  message:
    'This confirmation link has expired (links are valid for 7 days). Nothing was changed; subscribe again to get a new one.',
};

export function registerConfirmationRoutes(app: FastifyInstance, deps: LinkDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const actions = linkActionCounter(deps.metrics);
  const schema = { hide: true, params: TokenParams };

  api.get(`${CONFIRMATION_PATH}/:token`, { schema }, async (request, reply) => {
    const link = readConfirmationToken(deps.secrets, request.params.token);
    if (link === null) return sendPage(reply, 404, invalidLinkPage);
    const state = await confirmationState(deps.db, link.teamId, link.contactId);
    if (state === 'missing') return sendPage(reply, 404, invalidLinkPage);
    if (state === 'confirmed') return sendPage(reply, 200, confirmedPage);
    if (confirmationExpired(link, deps.clock.now())) return sendPage(reply, 410, expiredPage);
    return sendPage(reply, 200, {
      title: 'Confirm your subscription',
      message: 'Please confirm that you want to receive these emails.',
      button: 'Confirm',
    });
  });

  api.post(`${CONFIRMATION_PATH}/:token`, { schema, bodyLimit: LINK_BODY_LIMIT }, async (request, reply) => {
    const link = readConfirmationToken(deps.secrets, request.params.token);
    if (link === null) return sendPage(reply, 404, invalidLinkPage);
    const now = deps.clock.now();
    if (confirmationExpired(link, now)) {
      // An expired link changes nothing, but a contact that did confirm still hears so.
      const state = await confirmationState(deps.db, link.teamId, link.contactId);
      return state === 'confirmed'
        ? sendPage(reply, 200, confirmedPage)
        : sendPage(reply, state === 'missing' ? 404 : 410, state === 'missing' ? invalidLinkPage : expiredPage);
    }
    const state = await confirmContact(deps.db, link.teamId, link.contactId, now);
    if (state === 'missing') return sendPage(reply, 404, invalidLinkPage);
    request.log.info({ teamId: link.teamId, contactId: link.contactId }, 'contact confirmed by link');
    actions.inc({ action: 'confirm' });
    return sendPage(reply, 200, confirmedPage);
  });
}

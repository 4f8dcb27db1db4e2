// The public link endpoints, outside the API prefix and without an API key (no `config.access`, so
// platform/auth never attaches to them):
//
//   GET  /unsubscribe/{token}  a page asking to confirm; changes nothing (mail scanners follow GETs)
//   POST /unsubscribe/{token}  unsubscribes. RFC 8058 one-click (`List-Unsubscribe=One-Click`, form
//                              encoded) and the page's own form alike; any body is accepted and ignored
//   GET  /confirm/{token}      double opt-in: a page with a confirm button (confirmation-routes.ts)
//   POST /confirm/{token}      confirms the contact
//
// A token that is not ours answers 404 with a page. These are pages, not API: hidden from OpenAPI.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { registerConfirmationRoutes } from './confirmation-routes.ts';
import {
  LINK_BODY_LIMIT,
  TokenParams,
  invalidLinkPage,
  linkActionCounter,
  sendPage,
  wantsHtml,
  type LinkDeps,
} from './unsubscribe-pages.ts';
import { UNSUBSCRIBE_PATH, readUnsubscribeToken } from '../platform/unsubscribe-links.ts';
import { unsubscribeAddress, unsubscribeContact } from './unsubscribe-queries.ts';

function registerUnsubscribeRoutes(app: FastifyInstance, deps: LinkDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const actions = linkActionCounter(deps.metrics);
  const schema = { hide: true, params: TokenParams };

  api.get(`${UNSUBSCRIBE_PATH}/:token`, { schema }, async (request, reply) => {
    const target = readUnsubscribeToken(deps.secrets, request.params.token);
    if (target === null) return sendPage(reply, 404, invalidLinkPage);
    const who = target.kind === 'email' ? target.recipient : 'this address';
    return sendPage(reply, 200, {
      title: 'Unsubscribe',
      message: `Do you want to stop receiving these emails at ${who}?`,
      button: 'Unsubscribe',
      fields: { 'List-Unsubscribe': 'One-Click' },
    });
  });

  api.post(`${UNSUBSCRIBE_PATH}/:token`, { schema, bodyLimit: LINK_BODY_LIMIT }, async (request, reply) => {
    const target = readUnsubscribeToken(deps.secrets, request.params.token);
    if (target === null) return sendPage(reply, 404, invalidLinkPage);
    const now = deps.clock.now();
    if (target.kind === 'contact') {
      const found = await unsubscribeContact(deps.db, target.teamId, target.contactId, now);
      request.log.info({ teamId: target.teamId, contactId: target.contactId, found }, 'contact unsubscribed by link');
      actions.inc({ action: 'unsubscribe_contact' });
    } else {
      const contacts = await unsubscribeAddress(deps.db, target.teamId, target.recipient, target.emailId, now);
      request.log.info(
        { teamId: target.teamId, emailId: target.emailId, contacts },
        'address unsubscribed by email link',
      );
      actions.inc({ action: 'unsubscribe_email' });
    }
    if (!wantsHtml(request))
      return reply
        .code(200)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send('Unsubscribed\n');
    // A contact deleted since the mail was sent gets the same answer: it will receive nothing either way.
    return sendPage(reply, 200, {
      title: 'You are unsubscribed',
      message: 'You will not receive these emails any more.',
    });
  });
}

/** Registered at the root by app.ts: `await app.register(contactLinkRoutes(deps))`. */
export function contactLinkRoutes(deps: LinkDeps): FastifyPluginAsync {
  return async (scope) => {
    // Encapsulated: these parsers apply to the link routes only. RFC 8058 names the form-encoded body;
    // mail providers also send multipart or nothing at all. The body is never needed, so none is parsed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: LINK_BODY_LIMIT }, (_request, _body, done) =>
      done(null, undefined),
    );
    registerUnsubscribeRoutes(scope, deps);
    registerConfirmationRoutes(scope, deps);
  };
}

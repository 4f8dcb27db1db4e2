// Domains (FULL): add a sending domain, read the DNS records to publish, start a check, delete, and
// (Herald extension) turn open and click tracking on or off.
// Contract: 403 and 404 (and every verify/delete error) answer with a flat `{error: string}`; the
// platform error handler shapes them, keyed on these route patterns (the param must be `:id`).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { notifyQueue } from '../queue/index.ts';
import { DOMAIN_CHECK_QUEUE } from './check-queue.ts';
import { generateDkimKeyPair, newDkimSelector } from './dkim.ts';
import {
  getDomain,
  insertDomain,
  listDomains,
  requestDomainCheck,
  softDeleteDomain,
  updateDomainTracking,
} from './queries.ts';
import { returnPathFor } from './records.ts';
import * as s from './schemas.ts';
import { domainView } from './view.ts';
import { isUniqueViolation } from '../db/errors.ts';

type DomainDeps = {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  mailDomain: string;
  /** The team's domains with a live inbox (src/inboxes, handed over by app.ts: inboxes imports domains). */
  domainIdsWithInboxes: (db: Kysely<Database>, teamId: number) => Promise<Set<number>>;
};

/** A key limited to one domain reaches that domain only (contract: 403, key has no access to the domain). */
function checkDomainAccess(principal: Principal, id: number): void {
  if (principal.domainId !== null && principal.domainId !== id) {
    throw new ApiError(403, 'FORBIDDEN', 'This key is limited to another domain and has no access to this one');
  }
}

export function registerDomainRoutes(app: FastifyInstance, deps: DomainDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, domainIdsWithInboxes } = deps;
  const mailDomain = deps.mailDomain;
  const common = { tags: ['domains'], security: [{ apiKey: [] }] };
  // Error bodies per status: flat for 403/404 on reads and create, flat for everything on verify/delete.
  const readErrors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.FlatError, 404: s.FlatError, 429: s.ErrorBody };
  const flatErrors = { 400: s.FlatError, 401: s.FlatError, 403: s.FlatError, 404: s.FlatError, 429: s.FlatError };

  api.get(
    '/v1/domains',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'List the domains the key can use',
        description: 'A key limited to one domain sees that domain only.',
        response: { 200: s.Domain.array(), 401: s.ErrorBody, 403: s.FlatError, 429: s.ErrorBody },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const rows = await listDomains(db, principal.teamId, principal.domainId);
      const withInboxes = await domainIdsWithInboxes(db, principal.teamId);
      return rows.map((row) => domainView(row, mailDomain, withInboxes.has(row.id)));
    },
  );

  api.post(
    '/v1/domains',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Add a sending domain; the answer carries the DKIM, SPF, MX and DMARC records to publish',
        description: "Makes the domain's own 2048-bit DKIM key and starts a first DNS check (status PENDING).",
        body: s.CreateDomainBody,
        response: { 200: s.Domain, 409: s.ErrorBody, ...readErrors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      // A key limited to one domain cannot reach a domain it adds, so it may not add one.
      if (principal.domainId !== null) {
        throw new ApiError(403, 'FORBIDDEN', 'This key is limited to one domain and cannot add domains');
      }
      const { name, region } = request.body;
      const keys = await generateDkimKeyPair();
      const now = clock.now();
      try {
        const row = await db.transaction().execute(async (tx) => {
          const inserted = await insertDomain(
            tx,
            principal.teamId,
            {
              name,
              region,
              dkimSelector: newDkimSelector(),
              dkimPublicKey: keys.publicKey,
              sealedPrivateKey: deps.secrets.encrypt(keys.privateKeyPem),
              returnPath: returnPathFor(name),
            },
            now,
          );
          await notifyQueue(tx, DOMAIN_CHECK_QUEUE);
          return inserted;
        });
        return domainView(row, mailDomain);
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ApiError(409, 'CONFLICT', `The team already has a domain named ${name}`);
        throw error;
      }
    },
  );

  api.get(
    '/v1/domains/:id',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Read a domain with its DNS records and verification status',
        params: s.DomainParams,
        response: { 200: s.Domain, ...readErrors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      checkDomainAccess(principal, request.params.id);
      const row = await getDomain(db, principal.teamId, request.params.id);
      if (!row) throw notFound('Domain');
      return domainView(row, mailDomain, (await domainIdsWithInboxes(db, principal.teamId)).has(row.id));
    },
  );

  // Herald extension (the contract has no way to change the flags): same access, 403/404 and flat
  // error bodies as GET /v1/domains/:id (the error handler's table covers PATCH on this pattern).
  api.patch(
    '/v1/domains/:id',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Turn open and click tracking on or off (Herald extension)',
        description:
          'Herald extension, not in the contract. Flags left out of the body keep their value. Applies to mail delivered from now on: ' +
          'with openTracking the HTML gets a 1×1 pixel, with clickTracking its http(s) links (not mailto:, tel:, unsubscribe links ' +
          'or links marked `data-herald-no-track`) go through a signed redirect; both record events (OPENED, CLICKED) on the email.',
        params: s.DomainParams,
        body: s.UpdateDomainTrackingBody,
        response: { 200: s.Domain, ...readErrors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      checkDomainAccess(principal, request.params.id);
      const row = await updateDomainTracking(db, principal.teamId, request.params.id, request.body, clock.now());
      if (!row) throw notFound('Domain');
      return domainView(row, mailDomain);
    },
  );

  api.put(
    '/v1/domains/:id/verify',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Start a fresh DNS check; answers at once, the result is read from the domain',
        params: s.DomainParams,
        response: { 200: s.VerifyStarted, ...flatErrors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      checkDomainAccess(principal, request.params.id);
      const started = await db.transaction().execute(async (tx) => {
        if (!(await requestDomainCheck(tx, principal.teamId, request.params.id, clock.now()))) return false;
        await notifyQueue(tx, DOMAIN_CHECK_QUEUE);
        return true;
      });
      if (!started) throw notFound('Domain');
      return { message: 'Domain verification started' };
    },
  );

  api.delete(
    '/v1/domains/:id',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Delete a domain; mail can no longer be sent from it',
        params: s.DomainParams,
        response: { 200: s.DomainDeleted, ...flatErrors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      checkDomainAccess(principal, request.params.id);
      if (!(await softDeleteDomain(db, principal.teamId, request.params.id, clock.now()))) throw notFound('Domain');
      return { id: request.params.id, success: true, message: 'Domain deleted' };
    },
  );
}

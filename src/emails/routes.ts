// Emails: send (one or a batch), read one, list, reschedule, cancel. Another team's email answers
// 404 like a missing one; a sending access key reads only the emails it sent (Authentication).
import type { Db } from '../db/handle.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../platform/auth/plugin.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { completedKey, completeKeysIn } from '../platform/idempotency.ts';
import { notifyQueue } from '../queue/index.ts';
import { keptSince } from '../retention/index.ts';
import { getEmail, getEmailForUpdate, listEmailEvents, setEmailStatus, updateEmailSchedule } from './queries.ts';
import { recordEmailEventOf } from './email-events.ts';
import { registerEmailListRoute } from './list-route.ts';
import * as s from './schemas.ts';
import { EMAIL_DELIVERY_QUEUE, sendEmails, type SendBatching, type SendDeps } from './send.ts';
import type { SendEmailInput } from './schemas.ts';
import { emailView } from './views.ts';

/** What the routes use: the send path's parts (the built-in domain among them) without its batching. */
/** `reads`: where the list runs (a replica when set, app.ts); sends and single reads use `db`. */
/** eventsDays: HERALD_RETENTION_EVENTS_DAYS; an older email answers 404 though its month is still kept. */
type EmailDeps = Omit<SendDeps, 'batching'> & { reads?: Db; eventsDays: number };

/** Emails whose send time may still change: not yet handed to delivery. */
const UNSENT = new Set(['SCHEDULED', 'QUEUED']);
/** A delivery worker holds the email right now. */
const leased = (leaseUntil: Date | null, now: Date) => leaseUntil !== null && leaseUntil.getTime() > now.getTime();

const sendDescription =
  'Limits (contract): at most 50 distinct recipients across to, cc and bcc (422); subject 1 to 998 characters; html and text ' +
  'at most 2,000,000 characters; at most 10 attachments, filename 1 to 255 characters, 7 MB per file and 10 MB per email ' +
  'decoded (MB = 1,048,576 bytes); variables at most 200, each at most 10,000 characters. The from address must be on a ' +
  'verified domain of the team (400); a key limited to a domain sends only from it (403). Every recipient not on the ' +
  "suppression list counts against the plan's daily and monthly send limits (429). Without templateId, subject and html or text are required.";

export function registerEmailRoutes(app: FastifyInstance, deps: EmailDeps, batching: SendBatching): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = deps;
  // Concurrent sends of this process share one transaction (send-batch.ts).
  const sending = { ...deps, batching };
  const common = { tags: ['emails'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };
  const sendErrors = { ...errors, 409: s.ErrorBody, 422: s.ErrorBody };

  /**
   * A send; its Idempotency-Key, claimed before the handler, is completed in the send's own
   * transaction with the response (platform/idempotency.ts), so a stored email never leaves its key
   * in flight.
   */
  async function send(
    request: FastifyRequest,
    inputs: SendEmailInput[],
    batch: boolean,
    respond: (ids: string[]) => unknown,
  ): Promise<string[]> {
    const claimed = request.idempotency;
    const ids = await sendEmails(
      sending,
      principalOf(request),
      inputs,
      batch,
      claimed && {
        row: (newIds) => completedKey(claimed, JSON.stringify(respond(newIds))),
        write: completeKeysIn,
      },
    );
    if (claimed) claimed.stored = true;
    return ids;
  }

  api.post(
    '/v1/emails',
    {
      config: { access: 'send', idempotent: true },
      schema: {
        ...common,
        summary: 'Send an email',
        description: sendDescription,
        body: s.SendEmailBody,
        response: { 200: s.EmailId, ...sendErrors },
      },
    },
    async (request) => {
      const respond = (ids: string[]) => ({ emailId: ids[0]! });
      return respond(await send(request, [request.body], false, respond));
    },
  );

  api.post(
    '/v1/emails/batch',
    {
      config: { access: 'send', idempotent: true },
      schema: {
        ...common,
        summary: 'Send up to 100 emails',
        description: `${sendDescription} At most ${s.BATCH_MAX} emails and 40 MB of attachments decoded per batch. One bad message refuses the whole batch; nothing is stored.`,
        body: s.SendBatchBody,
        response: { 200: s.BatchResult, ...sendErrors },
      },
    },
    async (request) => {
      const respond = (ids: string[]) => ({ data: ids.map((emailId) => ({ emailId })) });
      return respond(await send(request, request.body, true, respond));
    },
  );

  api.get(
    '/v1/emails/:emailId',
    {
      config: { access: 'send' },
      schema: {
        ...common,
        summary: 'Read an email with its events',
        params: s.EmailParams,
        response: { 200: s.Email, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const scope = {
        onlyKeyId: principal.kind === 'sending' ? principal.keyId : null,
        onlyDomainId: principal.domainId,
      };
      const row = await getEmail(db, principal.teamId, request.params.emailId, scope);
      if (!row || row.created_at < keptSince(clock.now(), deps.eventsDays)) throw notFound('Email');
      return emailView(row, await listEmailEvents(db, principal.teamId, row.id));
    },
  );

  registerEmailListRoute(app, { db: deps.reads ?? db, keptSince: () => keptSince(clock.now(), deps.eventsDays) });

  api.patch(
    '/v1/emails/:emailId',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Change the send time of an unsent email',
        description:
          'Only while the email is SCHEDULED or QUEUED and not yet taken by delivery; otherwise 409 CONFLICT. A time in the past queues it now.',
        params: s.EmailParams,
        body: s.RescheduleBody,
        response: { 200: s.EmailId, ...errors, 409: s.ErrorBody },
      },
    },
    async (request) => {
      const { teamId, domainId } = principalOf(request);
      const { emailId } = request.params;
      await db.transaction().execute(async (tx) => {
        const row = await getEmailForUpdate(tx, teamId, emailId, domainId);
        if (!row) throw notFound('Email');
        const now = clock.now();
        if (!UNSENT.has(row.status) || row.attempts > 0 || leased(row.lease_until, now))
          throw new ApiError(409, 'CONFLICT', `The email is ${row.status} and can no longer be rescheduled`);
        const scheduledAt = new Date(request.body.scheduledAt);
        const future = scheduledAt.getTime() > now.getTime();
        const status = future ? 'SCHEDULED' : 'QUEUED';
        await updateEmailSchedule(tx, teamId, emailId, { status, scheduledAt, runAt: future ? scheduledAt : now }, now);
        await recordEmailEventOf(tx, row, status, { scheduledAt: scheduledAt.toISOString() }, now);
        if (status === 'QUEUED') await notifyQueue(tx, EMAIL_DELIVERY_QUEUE);
      });
      return { emailId };
    },
  );

  api.post(
    '/v1/emails/:emailId/cancel',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Cancel a scheduled, unsent email',
        description: 'Only while the email is SCHEDULED and not yet taken by delivery; otherwise 409 CONFLICT.',
        params: s.EmailParams,
        response: { 200: s.EmailId, ...errors, 409: s.ErrorBody },
      },
    },
    async (request) => {
      const { teamId, domainId } = principalOf(request);
      const { emailId } = request.params;
      await db.transaction().execute(async (tx) => {
        const row = await getEmailForUpdate(tx, teamId, emailId, domainId);
        if (!row) throw notFound('Email');
        const now = clock.now();
        if (row.status !== 'SCHEDULED' || row.attempts > 0 || leased(row.lease_until, now))
          throw new ApiError(
            409,
            'CONFLICT',
            `The email is ${row.status}; only a scheduled, unsent email can be cancelled`,
          );
        await setEmailStatus(tx, teamId, emailId, 'CANCELLED', now);
        await recordEmailEventOf(tx, row, 'CANCELLED', null, now);
      });
      return { emailId };
    },
  );
}

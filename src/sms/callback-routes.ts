// Provider callbacks (operator.md, "Provider callbacks"): public, no API key. Only the configured
// provider's path is live (another provider's answers 404); the adapter checks the report (Twilio's
// X-Twilio-Signature, Termii's X-Termii-Signature over the raw body, Africa's Talking's HMAC token
// in the path) and a report that fails the check changes nothing.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SMS_CALLBACK_PATHS, type CallbackRequest, type SmsProvider } from '../adapters/sms-provider/index.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { ApiError } from '../platform/errors.ts';
import { applyReports } from './reports.ts';

const CALLBACK_BODY_LIMIT = 64 * 1024;

/** The token in Africa's Talking's callback path: an HMAC of HERALD_SECRET, shown by the admin API. */
export function africasTalkingToken(secrets: Secrets): string {
  return secrets.hmac('link', 'sms-callback:africastalking').subarray(0, 24).toString('base64url');
}

export function smsCallbackUrls(publicUrl: string, secrets: Secrets) {
  return {
    twilio: `${publicUrl}${SMS_CALLBACK_PATHS.twilio}`,
    africastalking: `${publicUrl}${SMS_CALLBACK_PATHS.africastalking}/${africasTalkingToken(secrets)}`,
    termii: `${publicUrl}${SMS_CALLBACK_PATHS.termii}`,
  };
}

const notFound = () => new ApiError(404, 'NOT_FOUND', 'Not found');

export interface SmsCallbackDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** HERALD_PUBLIC_URL: the URL the provider signed is this plus the request's path. */
  publicUrl: string;
  smsProvider: SmsProvider;
}

export function smsCallbackRoutes(deps: SmsCallbackDeps) {
  const { db, clock, publicUrl, smsProvider } = deps;
  return async (scope: FastifyInstance) => {
    // Raw bodies: the signatures cover the bytes (Termii) or the exact form fields (Twilio).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: CALLBACK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );

    const receive = async (provider: SmsProvider['kind'], request: FastifyRequest, refusal: () => ApiError) => {
      if (smsProvider.kind !== provider) throw notFound();
      const callback: CallbackRequest = {
        url: `${publicUrl}${request.url}`,
        headers: request.headers,
        body: typeof request.body === 'string' ? request.body : '',
      };
      if (!smsProvider.verifyCallback(callback)) throw refusal();
      await applyReports(db, provider, smsProvider.parseReports(callback), clock.now());
      return { received: true };
    };
    const badSignature = () => new ApiError(403, 'FORBIDDEN', 'The callback signature is not valid');

    scope.post(SMS_CALLBACK_PATHS.twilio, { config: { access: 'public' } }, (request) =>
      receive('twilio', request, badSignature),
    );
    scope.post(`${SMS_CALLBACK_PATHS.africastalking}/:token`, { config: { access: 'public' } }, (request) =>
      receive('africastalking', request, notFound),
    );
    scope.post(SMS_CALLBACK_PATHS.termii, { config: { access: 'public' } }, (request) =>
      receive('termii', request, badSignature),
    );
  };
}

// What submission answers, as SMTP replies with their enhanced status codes (RFC 3463), and how the
// API's refusals (ApiError from queueEmails, the rate limiter, idempotency) become them: the same
// words as the API, the code a mail client understands. The table is in README.md beside this file.
import { SendLimitReached } from '../emails/index.ts';
import { ApiError } from '../platform/errors.ts';

/** A reply smtp-server writes as given: `code enhanced text` (listener.ts keeps it from adding its own code). */
export class SmtpReply extends Error {
  override name = 'SmtpReply';
  readonly responseCode: number;
  /** Why, for the metrics: a short label. */
  readonly reason: string;

  constructor(code: number, enhanced: string, text: string, reason: string) {
    // One line: the API's words may name a field, never carry a line break into the reply.
    super(`${enhanced} ${text.replace(/[\r\n]+/g, ' ')}`);
    this.responseCode = code;
    this.reason = reason;
  }
}

/** An enhanced status code at the start of a reply's text (listener.ts then adds none of its own). */
export const STARTS_WITH_ENHANCED_CODE = /^[245]\.\d{1,3}\.\d{1,3} /;

/** Temporary failure on our side: the client keeps the message and tries again. */
export const tryLater = () => new SmtpReply(451, '4.3.0', 'Temporary failure, try again later', 'failed');

/**
 * The SMTP answer to an API refusal:
 * - the from domain not the team's or not the key's (400 on `from`, 403): 550 5.7.1;
 * - more than 50 recipients (422): 452 4.5.3;
 * - the plan's daily or monthly send limit (429 SendLimitReached): 452 4.7.0, the per-second API
 *   limit (429): 421 4.7.0 (the connection closes; the client comes back later);
 * - attachments over their size limits (400 on `attachments`): 552 5.3.4;
 * - an Idempotency-Key still in flight (409): 451 4.3.0, used for another message (409): 554 5.5.0;
 * - any other invalid message (400, 404): 554 5.6.0; anything else: 451 4.3.0.
 */
export function replyOfApiError(error: ApiError): SmtpReply {
  const { status, message } = error;
  if (status === 403 || (status === 400 && message.startsWith('from:')))
    return new SmtpReply(550, '5.7.1', message, 'from_not_allowed');
  if (status === 422) return new SmtpReply(452, '4.5.3', message, 'too_many_recipients');
  if (error instanceof SendLimitReached) return new SmtpReply(452, '4.7.0', message, 'send_limit');
  if (status === 429) return new SmtpReply(421, '4.7.0', message, 'rate_limited');
  if (status === 400 && message.startsWith('attachments') && message.includes(' MB '))
    return new SmtpReply(552, '5.3.4', message, 'size');
  if (status === 409)
    return message.includes('still being processed')
      ? new SmtpReply(451, '4.3.0', message, 'idempotency_in_flight')
      : new SmtpReply(554, '5.5.0', message, 'idempotency_reused');
  if (status === 400 || status === 404) return new SmtpReply(554, '5.6.0', message, 'invalid');
  return tryLater();
}

/** An SmtpReply as is, an ApiError through replyOfApiError; null for anything else (a failure of ours). */
export function replyOf(error: unknown): SmtpReply | null {
  if (error instanceof SmtpReply) return error;
  if (error instanceof ApiError) return replyOfApiError(error);
  return null;
}

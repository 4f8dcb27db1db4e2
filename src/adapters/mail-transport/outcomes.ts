// Turns nodemailer's send result or error into one outcome per recipient. RCPT replies are per
// recipient; a DATA reply (or a connection failure) applies to every recipient still in play.
import type { RecipientOutcome, RecipientStatus } from './types.ts';

interface SmtpErrorLike {
  message?: string;
  code?: string;
  response?: string;
  responseCode?: number;
  command?: string;
  recipient?: string;
  rejectedErrors?: SmtpErrorLike[];
}

interface SendInfoLike {
  accepted?: unknown[];
  rejectedErrors?: SmtpErrorLike[];
  response?: string;
}

function statusOfCode(code: number | undefined): RecipientStatus {
  if (code !== undefined && code >= 200 && code < 300) return 'accepted';
  if (code !== undefined && code >= 500 && code < 600) return 'permanent';
  return 'temporary';
}

function addressOf(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  const address = (entry as { address?: unknown } | null)?.address;
  return typeof address === 'string' ? address : '';
}

const key = (address: string) => address.trim().toLowerCase();

function outcomeOfError(recipient: string, error: SmtpErrorLike, host: string | undefined): RecipientOutcome {
  const response = error.response ?? error.message ?? 'delivery failed';
  return {
    recipient,
    status: statusOfCode(error.responseCode),
    response,
    ...(error.responseCode !== undefined ? { responseCode: error.responseCode } : {}),
    ...(host !== undefined ? { host } : {}),
  };
}

function responseCodeOf(response: string | undefined): number | undefined {
  const match = /^(\d{3})/.exec(response ?? '');
  return match ? Number(match[1]) : undefined;
}

/** A completed transaction: accepted recipients share the final reply; refused ones keep their RCPT reply. */
export function outcomesFromInfo(recipients: string[], info: SendInfoLike, host?: string): RecipientOutcome[] {
  const accepted = new Set((info.accepted ?? []).map((entry) => key(addressOf(entry))));
  const refused = new Map((info.rejectedErrors ?? []).map((error) => [key(error.recipient ?? ''), error]));
  const response = info.response ?? '250 accepted';
  const responseCode = responseCodeOf(response);
  return recipients.map((recipient) => {
    const error = refused.get(key(recipient));
    if (error) return outcomeOfError(recipient, error, host);
    if (accepted.has(key(recipient))) {
      return {
        recipient,
        status: 'accepted',
        response,
        ...(responseCode !== undefined ? { responseCode } : {}),
        ...(host !== undefined ? { host } : {}),
      };
    }
    return {
      recipient,
      status: 'temporary',
      response: 'the server gave no reply for this recipient',
      ...(host !== undefined ? { host } : {}),
    };
  });
}

/** A failed transaction. Every recipient refused at RCPT: their own replies; otherwise the one error for all. */
export function outcomesFromError(recipients: string[], error: unknown, host?: string): RecipientOutcome[] {
  const smtpError = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SmtpErrorLike;
  const refused = new Map(
    (smtpError.rejectedErrors ?? []).map((rejected) => [key(rejected.recipient ?? ''), rejected]),
  );
  return recipients.map((recipient) => outcomeOfError(recipient, refused.get(key(recipient)) ?? smtpError, host));
}

/** The same failure for every recipient (DNS, no mail host, every host unreachable). */
export function outcomesForAll(
  recipients: string[],
  status: RecipientStatus,
  response: string,
  host?: string,
): RecipientOutcome[] {
  return recipients.map((recipient) => ({ recipient, status, response, ...(host !== undefined ? { host } : {}) }));
}

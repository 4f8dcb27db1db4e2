// One submitted message, from its bytes to a stored email: read (mailparser, loaded at the first
// message), turned into the body of POST /v1/emails (message-input.ts), then sent through the same
// code as the API: its Idempotency-Key claimed and completed as the send routes do
// (platform/idempotency.ts), the email stored by sendEmails, whose one door is queueEmails (every
// limit, quota, suppression and rule). The caller answers 250 only once this resolves, which is
// after the email's transaction committed.
import type { ParsedMail } from 'mailparser';
import { sendEmails, type SendBatching, type SendDeps } from '../emails/index.ts';
import {
  checkIdempotencyKey,
  claimIdempotencyKey,
  completedKey,
  completeKeysIn,
  idempotencyHash,
  releaseIdempotencyKey,
  type ClaimedKey,
} from '../platform/idempotency.ts';
import { lazy } from '../platform/lazy.ts';
import {
  messageShapeProblem,
  parseMimeWithin,
  ParseDeadlineError,
  UnreadableMessageError,
} from '../platform/mime-limits.ts';
import type { SubmissionUser } from './auth.ts';
import { submittedInput } from './message-input.ts';
import { SmtpReply, tryLater } from './smtp-replies.ts';

/** mailparser (with its MIME and charset packages), read at the first message submitted. */
const mailparser = lazy(() => import('mailparser'));

export type SubmitDeps = Omit<SendDeps, 'batching'> & { batching: SendBatching };

/** What a stored (or replayed) message answers with. */
export interface Submitted {
  emailId: string | null;
  /** The Idempotency-Key was seen before: nothing new was stored. */
  replayed: boolean;
}

async function parse(raw: Buffer): Promise<ParsedMail> {
  try {
    return await parseMimeWithin(raw, async (bytes) =>
      (await mailparser()).simpleParser(bytes, {
        // cid: references stay as written: the inline parts keep their Content-ID (not data: URIs).
        keepCidLinks: true,
        // The API keeps only what it was given: no text made from HTML, no HTML from text, no links.
        skipHtmlToText: true,
        skipTextToHtml: true,
        skipTextLinks: true,
        skipImageLinks: true,
      }),
    );
  } catch (error) {
    if (error instanceof UnreadableMessageError) throw new SmtpReply(554, '5.6.0', error.message, 'unreadable');
    if (error instanceof ParseDeadlineError) throw tryLater();
    throw error;
  }
}

/**
 * Stores the message `raw` sent to `rcptTo` as `user`'s email with source 'smtp'. Throws an
 * SmtpReply (or an ApiError of the send, for smtp-replies.ts) when it is refused.
 */
export async function submitMessage(
  deps: SubmitDeps,
  user: SubmissionUser,
  message: { rcptTo: string[]; raw: Buffer },
): Promise<Submitted> {
  const problem = messageShapeProblem(message.raw);
  if (problem !== null) throw new SmtpReply(554, '5.6.0', problem.message, 'unreadable');
  const { input, idempotencyKey } = submittedInput(await parse(message.raw), message.rcptTo);
  const { principal } = user;
  let claimed: ClaimedKey | undefined;
  if (idempotencyKey !== null) {
    const claim = await claimIdempotencyKey(deps.db, {
      teamId: principal.teamId,
      key: checkIdempotencyKey(idempotencyKey),
      // Its own route name: the same key sent over HTTP for another body is another request (409).
      hash: idempotencyHash('SMTP', 'submission', {}, input),
      now: deps.clock.now(),
    });
    if ('replay' in claim) return { emailId: replayedEmailId(claim.replay.body), replayed: true };
    claimed = claim.claimed;
  }
  try {
    const [emailId] = await sendEmails(
      deps,
      principal,
      [input],
      false,
      claimed && {
        row: (ids) => completedKey(claimed, JSON.stringify({ emailId: ids[0] })),
        write: completeKeysIn,
      },
      'smtp',
    );
    return { emailId: emailId!, replayed: false };
  } catch (error) {
    // Refused or failed: the key is free again for a retry, as after a failed HTTP send.
    if (claimed) await releaseIdempotencyKey(deps.db, claimed).catch(() => {});
    throw error;
  }
}

function replayedEmailId(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { emailId?: unknown };
    return typeof parsed.emailId === 'string' ? parsed.emailId : null;
  } catch {
    return null;
  }
}

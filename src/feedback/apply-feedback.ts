// One received report -> events on the email it is about, and suppressions. Matching (README.md):
// a bounce is trusted only through the HMAC-signed return path it was sent to; a complaint also
// through the signed return path inside it, then through the original Message-ID when that names
// our mail domain and an email that exists. The recipient must be one the email was sent to.
// Whatever does not match is dropped with a reason the caller counts (feedbackCounter).
// Parsing and matching need no database; recording (record-reports.ts) does. A batch of spooled
// messages is recorded in one transaction (applyFeedbackBatch, src/mx/record-spooled.ts).
import { setImmediate } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import { Counter, type Registry } from 'prom-client';
import type { Database } from '../db/schema.ts';
import { parseReturnPath } from '../emails/index.ts';
import type { Secrets } from '../platform/crypto.ts';
import type { FeedbackDeps, FeedbackEnvelope, FeedbackOutcome } from './feedback-types.ts';
import { parseFeedbackReport, type FeedbackReport } from './parse-report.ts';
import { decide, ignored, readEmails, recordReports, writeDecisionsIn, type MatchedReport } from './record-reports.ts';

export type {
  FeedbackDeps,
  FeedbackEnvelope,
  FeedbackKind,
  FeedbackOutcome,
  IgnoredReason,
  RecipientOutcome,
} from './feedback-types.ts';

const COMPLAINT_TYPES = new Set(['abuse', 'fraud']);
/** Messages parsed between two yields to the event loop (each takes tens of microseconds). */
const PARSE_BETWEEN_YIELDS = 16;
const RETURN_PATH_LIKE = /bounce\+[a-z0-9_]+\.[a-z0-9]+@[a-z0-9.-]+/gi;
const EMAIL_ID = /^[a-z0-9_]{1,40}$/;

type Match = { emailId: string; via: 'return-path' | 'message-id' } | { forged: boolean };

/** The email a report names through a return path whose HMAC checks, or why none. */
function matchReturnPath(candidates: string[], secrets: Secrets): Match {
  let forged = false;
  for (const candidate of candidates) {
    const emailId = parseReturnPath(candidate, secrets);
    if (emailId !== null) return { emailId, via: 'return-path' };
    if (/bounce\+/i.test(candidate)) forged = true;
  }
  return { forged };
}

/** `<emailId@HERALD_MAIL_DOMAIN>` only: any other domain's Message-ID is not ours to act on. */
function emailIdFromMessageId(report: FeedbackReport, mailDomain: string): string | null {
  const match = /<([^<>@\s]+)@([^<>\s]+)>/.exec(report.originalHeaders['message-id'] ?? '');
  if (!match || match[2]!.toLowerCase() !== mailDomain.toLowerCase()) return null;
  const id = match[1]!.toLowerCase();
  return EMAIL_ID.test(id) ? id : null;
}

function candidatesOf(report: FeedbackReport, envelope: FeedbackEnvelope): string[] {
  if (report.kind === 'dsn') return envelope.rcptTo; // a bounce goes to the MAIL FROM it answers
  return [
    ...envelope.rcptTo,
    ...(report.originalMailFrom === null ? [] : [report.originalMailFrom]),
    ...(report.originalHeaders['return-path'] === undefined ? [] : [report.originalHeaders['return-path']]),
    ...(report.originalHeaderText.match(RETURN_PATH_LIKE) ?? []),
  ];
}

/** Parses and matches one message: the outcome when nothing is to be recorded, else what to record. */
async function matchFeedback(
  deps: FeedbackDeps,
  envelope: FeedbackEnvelope,
  raw: Buffer,
): Promise<FeedbackOutcome | MatchedReport> {
  const report = await parseFeedbackReport(raw);
  if (report.kind === 'unrecognised') return ignored(report.kind, 'unrecognised');
  if (report.kind === 'complaint' && !COMPLAINT_TYPES.has(report.feedbackType ?? ''))
    return ignored(report.kind, 'not-a-complaint');
  const match = matchReturnPath(candidatesOf(report, envelope), deps.secrets);
  if ('emailId' in match) return { report, emailId: match.emailId, via: match.via };
  // A Message-ID is guessable where an HMAC is not, so only complaints fall back to it, and only
  // when no forged return path came with it.
  const byMessageId =
    report.kind === 'complaint' && !match.forged ? emailIdFromMessageId(report, deps.mailDomain) : null;
  if (byMessageId !== null) return { report, emailId: byMessageId, via: 'message-id' };
  return ignored(report.kind, match.forged ? 'forged' : 'unknown-email');
}

/** Parses one received message and records what it reports in its own transaction. Never throws for bad input. */
export async function applyFeedback(
  deps: FeedbackDeps,
  envelope: FeedbackEnvelope,
  raw: Buffer,
): Promise<FeedbackOutcome> {
  const matched = await matchFeedback(deps, envelope, raw);
  return 'outcome' in matched ? matched : (await recordReports(deps, [matched]))[0]!;
}

/** A received message as the feedback path needs it. */
export interface FeedbackMessage {
  envelope: FeedbackEnvelope;
  raw: Buffer;
}

/**
 * Many received messages at once (a batch of the inbound queue): each parsed and matched, their
 * emails read with one statement, and what they report recorded in ONE transaction, in which
 * `alsoInTransaction` runs too (the queue deletes the spooled messages there, so each is acted on
 * exactly once). The same results as applyFeedback one message at a time, in arrival order
 * (test/mx/inbound-queue.test.ts). A database error fails the whole batch: nothing of it is
 * written, and the caller may try the messages one by one.
 */
export async function applyFeedbackBatch(
  deps: FeedbackDeps,
  messages: readonly FeedbackMessage[],
  alsoInTransaction: (tx: Transaction<Database>) => Promise<void>,
): Promise<FeedbackOutcome[]> {
  const matched: (FeedbackOutcome | MatchedReport)[] = [];
  for (const [i, m] of messages.entries()) {
    // Parsing is CPU work: hundreds in a row would hold the event loop, and with it the listener's
    // replies to the senders, for milliseconds. Other work goes in between.
    if (i > 0 && i % PARSE_BETWEEN_YIELDS === 0) await setImmediate();
    matched.push(await matchFeedback(deps, m.envelope, m.raw));
  }
  const reports = matched.filter((m): m is MatchedReport => !('outcome' in m));
  const now = deps.clock.now();
  const emails = await readEmails(
    deps.db,
    reports.map((r) => r.emailId),
  );
  const decisions = reports.map((report, i) => decide(report, emails[i]!, now));
  const recorded = await deps.db.transaction().execute(async (tx) => {
    const outcomes = await writeDecisionsIn(tx, decisions, now);
    await alsoInTransaction(tx);
    return outcomes;
  });
  let next = 0;
  return matched.map((m) => ('outcome' in m ? m : recorded[next++]!));
}

/** `herald_feedback_reports_total{outcome, reason}`: what the SMTP listener counts per message. */
export function feedbackCounter(registry: Registry): Counter<'outcome' | 'reason'> {
  const name = 'herald_feedback_reports_total';
  return (
    (registry.getSingleMetric(name) as Counter<'outcome' | 'reason'> | undefined) ??
    new Counter({
      name,
      help: 'Bounce and complaint reports received, by outcome and (when dropped) reason',
      labelNames: ['outcome', 'reason'] as const,
      registers: [registry],
    })
  );
}

/** Counts one applyFeedback result. */
export function countFeedback(counter: Counter<'outcome' | 'reason'>, result: FeedbackOutcome): void {
  counter.inc({ outcome: result.outcome, reason: result.reason ?? 'none' });
}

// One received report -> events on the email it is about, and suppressions. Matching (README.md):
// a bounce is trusted only through the HMAC-signed return path it was sent to; a complaint also
// through the signed return path inside it, then through the original Message-ID when that names
// our mail domain and an email that exists. The recipient must be one the email was sent to.
// Whatever does not match is dropped with a reason the caller counts (feedbackCounter).
// Parsing and matching need no database; recording (record-reports.ts) does, and the SMTP listener
// records the reports that arrive together in one transaction (createFeedbackApplier).
import { Counter, type Registry } from 'prom-client';
import { parseReturnPath } from '../emails/index.ts';
import { Coalescer } from '../platform/coalescer.ts';
import type { Secrets } from '../platform/crypto.ts';
import type { FeedbackDeps, FeedbackEnvelope, FeedbackOutcome } from './feedback-types.ts';
import { parseFeedbackReport, type FeedbackReport } from './parse-report.ts';
import { ignored, recordReports, type MatchedReport } from './record-reports.ts';

export type { FeedbackDeps, FeedbackEnvelope, FeedbackKind, FeedbackOutcome, IgnoredReason, RecipientOutcome } from './feedback-types.ts';

const COMPLAINT_TYPES = new Set(['abuse', 'fraud']);
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
export async function matchFeedback(deps: FeedbackDeps, envelope: FeedbackEnvelope, raw: Buffer): Promise<FeedbackOutcome | MatchedReport> {
  const report = await parseFeedbackReport(raw);
  if (report.kind === 'unrecognised') return ignored(report.kind, 'unrecognised');
  if (report.kind === 'complaint' && !COMPLAINT_TYPES.has(report.feedbackType ?? '')) return ignored(report.kind, 'not-a-complaint');
  const match = matchReturnPath(candidatesOf(report, envelope), deps.secrets);
  if ('emailId' in match) return { report, emailId: match.emailId, via: match.via };
  // A Message-ID is guessable where an HMAC is not, so only complaints fall back to it, and only
  // when no forged return path came with it.
  const byMessageId = report.kind === 'complaint' && !match.forged ? emailIdFromMessageId(report, deps.mailDomain) : null;
  if (byMessageId !== null) return { report, emailId: byMessageId, via: 'message-id' };
  return ignored(report.kind, match.forged ? 'forged' : 'unknown-email');
}

/** Parses one received message and records what it reports in its own transaction. Never throws for bad input. */
export async function applyFeedback(deps: FeedbackDeps, envelope: FeedbackEnvelope, raw: Buffer): Promise<FeedbackOutcome> {
  const matched = await matchFeedback(deps, envelope, raw);
  return 'outcome' in matched ? matched : (await recordReports(deps, [matched]))[0]!;
}

export interface FeedbackApplier {
  /** As applyFeedback; resolves only after the transaction holding the report committed. */
  apply(envelope: FeedbackEnvelope, raw: Buffer): Promise<FeedbackOutcome>;
}

/**
 * applyFeedback with group commit, for the SMTP listener: reports that arrive while a batch is in
 * the database go together in the next transaction (up to 64), so a burst of bounces shares commits
 * instead of paying one fsync each. Each promise still resolves only after its own report committed,
 * so the 250 never precedes durability; a batch that fails is retried report by report (Coalescer),
 * so a bad report fails alone and its sender retries it.
 */
export function createFeedbackApplier(
  deps: FeedbackDeps,
  options: { maxBatch?: number; concurrency?: number; gatherMs?: number } = {},
): FeedbackApplier {
  // One batch is one read of the emails and one transaction (recordReports). Measured on the SMTP
  // benchmark (4 pipelined connections, so at most 4 reports in flight): a separate read stage
  // batched on its own gained nothing (its batches stayed at one report). Two batches at once split
  // the reports into batches of 1-2 that each paid the whole per-statement cost (the event
  // statement's triggers above all); one batch at a time that, while busy, waits up to 1 ms for the
  // reports of the other senders settles into batches of all of them: about half the database CPU
  // and two thirds of the listener's per report, and more reports per second. The first report
  // after an idle spell still goes at once.
  const writes = new Coalescer<MatchedReport, FeedbackOutcome>((items) => recordReports(deps, items), {
    maxBatch: options.maxBatch ?? 64,
    concurrency: options.concurrency ?? 1,
    gatherMs: options.gatherMs ?? 1,
  });
  return {
    async apply(envelope, raw) {
      const matched = await matchFeedback(deps, envelope, raw);
      return 'outcome' in matched ? matched : writes.submit(matched);
    },
  };
}

/** `herald_feedback_reports_total{outcome, reason}`: what the SMTP listener counts per message. */
export function feedbackCounter(registry: Registry): Counter<'outcome' | 'reason'> {
  const name = 'herald_feedback_reports_total';
  return (
    (registry.getSingleMetric(name) as Counter<'outcome' | 'reason'> | undefined) ??
    new Counter({ name, help: 'Bounce and complaint reports received, by outcome and (when dropped) reason', labelNames: ['outcome', 'reason'] as const, registers: [registry] })
  );
}

/** Counts one applyFeedback result. */
export function countFeedback(counter: Counter<'outcome' | 'reason'>, result: FeedbackOutcome): void {
  counter.inc({ outcome: result.outcome, reason: result.reason ?? 'none' });
}

// Recording matched reports, in three steps so that many reports share each statement:
// readEmails (the emails' teams and recipients, one SELECT for a batch, no locks), decide (what each
// report does: outcome, events, suppressions; no database), and writeDecisions (a batch of decisions
// in ONE transaction: one recordEmailEvents per round, usually one, one suppression upsert, COMMIT).
// The read needs no lock: the recipients of an email never change, and recordEmailEvents re-checks
// that the email exists under its own lock (an email gone in between is 'unknown-email').
// Locks, always in the same order so concurrent batches cannot deadlock: email rows in id order
// (recordEmailEvents), then suppression rows in (team, address) order.
import type { Kysely, Transaction } from 'kysely';
import type { Database, EmailStatus } from '../db/schema.ts';
import { emailsWithRecipients, recordEmailEvents, type EmailEventInput, type EmailOfEvent } from '../emails/index.ts';
import { classifyBounce } from './bounce-rules.ts';
import type { FeedbackDeps, FeedbackKind, FeedbackOutcome, IgnoredReason, RecipientOutcome } from './feedback-types.ts';
import type { FeedbackReport, ReportRecipient } from './parse-report.ts';
import { upsertSuppressions, type Suppression } from './suppression-queries.ts';

/** A report whose email was found by its signed return path (or, for complaints, Message-ID). */
export interface MatchedReport {
  report: FeedbackReport;
  emailId: string;
  via: 'return-path' | 'message-id';
}

const FAILURE_ACTIONS = new Set(['failed', 'delayed']);
const RANK: Record<FeedbackKind, number> = { ignored: 0, delayed: 1, bounced: 2, complained: 3 };

export function ignored(
  kind: FeedbackReport['kind'],
  reason: IgnoredReason,
  found: { teamId?: number; emailId?: string } = {},
): FeedbackOutcome {
  return { outcome: 'ignored', reason, report: kind, ...found, recipients: [] };
}

interface EmailFacts {
  teamId: number;
  sentTo: string[];
  /** What its events' webhook payloads show (recordEmailEvents builds them from it). */
  email: EmailOfEvent;
}

/** Each email's team, recipients and payload fields, in input order (null: no such email). The email
 * id is the only key a report carries, and ids are global, so the team comes from it. */
export async function readEmails(db: Kysely<Database>, emailIds: readonly string[]): Promise<(EmailFacts | null)[]> {
  const emails = await emailsWithRecipients(db, emailIds);
  return emailIds.map((id) => {
    const found = emails.get(id);
    return found ? { teamId: found.email.team_id, ...found } : null;
  });
}

/** The complained-about recipient: ARF Original-Rcpt-To, else the original To when it is one of
 * ours, else the email's only recipient (providers often redact the address in the report). */
function complainant(report: FeedbackReport, sentTo: string[]): string | null {
  const named = report.recipients.map((r) => r.address).find((a) => sentTo.includes(a));
  if (named !== undefined) return named;
  if (report.recipients.length > 0) return null;
  const inTo = (report.originalHeaders.to?.match(/[^\s<>,;"]+@[^\s<>,;"]+/g) ?? [])
    .map((a) => a.toLowerCase())
    .filter((a) => sentTo.includes(a));
  if (inTo.length === 1) return inTo[0]!;
  return sentTo.length === 1 ? sentTo[0]! : null;
}

function dsnEvent(recipient: ReportRecipient, report: FeedbackReport) {
  const verdict = classifyBounce({
    action: recipient.action,
    status: recipient.status,
    diagnosticCode: recipient.diagnosticCode,
  });
  const data = {
    recipient: recipient.address,
    action: recipient.action,
    status: verdict.status,
    diagnosticCode: recipient.diagnosticCode,
    reason: verdict.reason,
    bounceType: verdict.bounceType,
    category: verdict.category,
    remoteMta: recipient.remoteMta,
    reportingMta: report.reportingMta,
    format: report.format,
  };
  const status: EmailStatus = verdict.bounceType === 'hard' ? 'BOUNCED' : 'DELIVERY_DELAYED';
  return { verdict, data, status };
}

/** What one report does to its email: the outcome, and the events and suppressions to write. */
interface Decision {
  outcome: FeedbackOutcome;
  events: EmailEventInput[];
  suppressions: Suppression[];
}

export function decide(item: MatchedReport, email: EmailFacts | null, now: Date): Decision {
  const events: EmailEventInput[] = [];
  const suppressions: Suppression[] = [];
  const { report, emailId } = item;
  if (email === null) return { outcome: ignored(report.kind, 'unknown-email'), events, suppressions };
  const { teamId, sentTo } = email;
  const found = { teamId, emailId };
  const event = (status: EmailStatus, data: unknown): EmailEventInput => ({
    teamId,
    emailId,
    status,
    data,
    at: now,
    email: email.email,
  });

  if (report.kind === 'complaint') {
    const address = complainant(report, sentTo);
    if (address === null) return { outcome: ignored(report.kind, 'unknown-recipient', found), events, suppressions };
    const data = {
      recipient: address,
      feedbackType: report.feedbackType,
      matchedBy: item.via,
      reason: 'The recipient marked the message as spam',
    };
    events.push(event('COMPLAINED', data));
    suppressions.push({ team_id: teamId, email: address, reason: 'COMPLAINT', email_id: emailId });
    const outcome: FeedbackOutcome = {
      outcome: 'complained',
      report: report.kind,
      ...found,
      recipients: [{ address, outcome: 'complained', suppressed: true }],
    };
    return { outcome, events, suppressions };
  }

  const failures = report.recipients.filter((r) => r.action === null || FAILURE_ACTIONS.has(r.action));
  if (failures.length === 0) return { outcome: ignored(report.kind, 'not-a-failure', found), events, suppressions };
  const done: RecipientOutcome[] = [];
  for (const recipient of failures) {
    if (!sentTo.includes(recipient.address)) continue;
    const { verdict, data, status } = dsnEvent(recipient, report);
    events.push(event(status, data));
    const hard = verdict.bounceType === 'hard';
    if (hard)
      suppressions.push({ team_id: teamId, email: recipient.address, reason: 'HARD_BOUNCE', email_id: emailId });
    done.push({
      address: recipient.address,
      outcome: hard ? 'bounced' : 'delayed',
      bounceType: verdict.bounceType,
      category: verdict.category,
      suppressed: hard,
    });
  }
  if (done.length === 0) return { outcome: ignored(report.kind, 'unknown-recipient', found), events, suppressions };
  const outcome = done.reduce<FeedbackKind>(
    (worst, r) => (RANK[r.outcome] > RANK[worst] ? r.outcome : worst),
    'ignored',
  );
  // Some recipients of the report were not the email's: recorded what matched, and say so.
  const partial = done.length < failures.length ? { reason: 'unknown-recipient' as const } : {};
  return { outcome: { outcome, ...partial, report: report.kind, ...found, recipients: done }, events, suppressions };
}

/** recordEmailEvents takes one event per email per call: the k-th event of each email goes in
 * round k, so each email's events still apply in arrival order (status precedence depends on it). */
function rounds(events: EmailEventInput[]): EmailEventInput[][] {
  const result: EmailEventInput[][] = [];
  const seen = new Map<string, number>();
  for (const event of events) {
    const round = seen.get(event.emailId) ?? 0;
    seen.set(event.emailId, round + 1);
    (result[round] ??= []).push(event);
  }
  return result;
}

/**
 * One upsert for the batch, one row per address (ON CONFLICT may touch a row once per statement).
 * The same result as upserting one by one in arrival order: a complaint is the stronger statement
 * and replaces an earlier reason (the first complaint's email wins); a bounce never replaces a
 * complaint (upsertSuppressions); created_at stays the first suppression's.
 */
async function suppress(tx: Transaction<Database>, suppressions: Suppression[], now: Date): Promise<void> {
  const byAddress = new Map<string, Suppression>();
  for (const s of suppressions.map((s) => ({ ...s, email: s.email.toLowerCase() }))) {
    const key = `${s.team_id} ${s.email}`;
    const earlier = byAddress.get(key);
    if (earlier === undefined || (s.reason === 'COMPLAINT' && earlier.reason !== 'COMPLAINT')) byAddress.set(key, s);
  }
  if (byAddress.size === 0) return;
  await upsertSuppressions(tx, [...byAddress.values()], now);
}

/** Writes the decisions' events and suppressions in one transaction; answers in input order. */
async function writeDecisions(
  db: Kysely<Database>,
  decisions: readonly Decision[],
  now: Date,
): Promise<FeedbackOutcome[]> {
  if (decisions.every((d) => d.events.length === 0)) return decisions.map((d) => d.outcome);
  return db.transaction().execute((tx) => writeDecisionsIn(tx, decisions, now));
}

/** writeDecisions inside the caller's transaction (the inbound queue deletes its spooled messages in it). */
export async function writeDecisionsIn(
  tx: Transaction<Database>,
  decisions: readonly Decision[],
  now: Date,
): Promise<FeedbackOutcome[]> {
  const gone = new Set<string>();
  for (const round of rounds(decisions.flatMap((d) => d.events))) {
    const recorded = await recordEmailEvents(tx, round);
    round.forEach((event, i) => {
      if (!recorded[i]!.found) gone.add(event.emailId);
    });
  }
  // An email deleted since readEmails took no event: nothing is suppressed in its name.
  const kept = decisions.map((d) =>
    d.events.length > 0 && gone.has(d.events[0]!.emailId)
      ? { ...d, outcome: ignored(d.outcome.report, 'unknown-email'), suppressions: [] }
      : d,
  );
  await suppress(
    tx,
    kept.flatMap((d) => d.suppressions),
    now,
  );
  return kept.map((d) => d.outcome);
}

/** readEmails, decide and writeDecisions for a batch of reports (applyFeedback's path). */
export async function recordReports(deps: FeedbackDeps, items: readonly MatchedReport[]): Promise<FeedbackOutcome[]> {
  const now = deps.clock.now();
  const emails = await readEmails(
    deps.db,
    items.map((i) => i.emailId),
  );
  return writeDecisions(
    deps.db,
    items.map((item, i) => decide(item, emails[i]!, now)),
    now,
  );
}

// The shapes applyFeedback answers with, shared by matching (apply-feedback.ts) and recording
// (record-reports.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import type { BounceCategory, BounceType } from './bounce-rules.ts';
import type { FeedbackReport } from './parse-report.ts';

export interface FeedbackDeps {
  db: Kysely<Database>;
  secrets: Secrets;
  clock: Clock;
  /** HERALD_MAIL_DOMAIN: the right-hand side of our Message-IDs. */
  mailDomain: string;
}

export interface FeedbackEnvelope {
  rcptTo: string[];
  mailFrom: string;
}

export type FeedbackKind = 'bounced' | 'delayed' | 'complained' | 'ignored';

export type IgnoredReason =
  | 'unrecognised'
  | 'forged'
  | 'unknown-email'
  | 'unknown-recipient'
  /** A DSN that reports only delivered, relayed or expanded recipients. */
  | 'not-a-failure'
  /** An ARF report of another type than abuse or fraud (not-spam, auth-failure, virus, other). */
  | 'not-a-complaint';

export interface RecipientOutcome {
  address: string;
  outcome: Exclude<FeedbackKind, 'ignored'>;
  bounceType?: BounceType;
  category?: BounceCategory;
  suppressed: boolean;
}

export interface FeedbackOutcome {
  /** The most serious thing recorded (complained > bounced > delayed), or ignored. */
  outcome: FeedbackKind;
  /** Why nothing (or not everything) was recorded. */
  reason?: IgnoredReason;
  report: FeedbackReport['kind'];
  teamId?: number;
  emailId?: string;
  recipients: RecipientOutcome[];
}

// What other parts may use of deliverability feedback: the SMTP listener applies each message it
// receives at a return path (or the complaint address) through createFeedbackApplier (applyFeedback
// with group commit) and counts the outcome.
export {
  applyFeedback,
  countFeedback,
  createFeedbackApplier,
  feedbackCounter,
  type FeedbackApplier,
  type FeedbackDeps,
  type FeedbackEnvelope,
  type FeedbackKind,
  type FeedbackOutcome,
  type IgnoredReason,
  type RecipientOutcome,
} from './apply-feedback.ts';
export { classifyBounce, type BounceCategory, type BounceClassification, type BounceType } from './bounce-rules.ts';
export { parseFeedbackReport, type FeedbackReport, type ReportRecipient } from './parse-report.ts';

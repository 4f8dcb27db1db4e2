// What other parts may use of deliverability feedback: the inbound queue applies the messages the
// SMTP listener spooled at a return path (or the complaint address) through applyFeedbackBatch, many
// to a transaction, and counts each outcome; admin reads and clears a team's suppressions; app.ts
// registers the team's own suppression routes.
export {
  applyFeedback,
  countFeedback,
  applyFeedbackBatch,
  feedbackCounter,
  type FeedbackDeps,
  type FeedbackEnvelope,
  type FeedbackMessage,
  type FeedbackKind,
  type FeedbackOutcome,
  type IgnoredReason,
  type RecipientOutcome,
} from './apply-feedback.ts';
export { classifyBounce, type BounceCategory, type BounceClassification, type BounceType } from './bounce-rules.ts';
export { sessionBounces } from './session-bounces.ts';
export { parseFeedbackReport, type FeedbackReport, type ReportRecipient } from './parse-report.ts';
export {
  deleteSuppression,
  getSuppression,
  isSuppressed,
  listSuppressions,
  type SuppressionRow,
} from './suppression-queries.ts';
export { registerSuppressionRoutes } from './suppression-routes.ts';

-- Delivery reports that name a provider id no message has yet: the worker records a batch's ids
-- with its outcomes, after its slowest call, and a provider may report before that. Such a report
-- waits here and is applied when the id appears (src/sms/pending-reports.ts); one that never
-- matches is purged after a few days. One row per id and status, so duplicates are kept once and
-- the statuses can be applied in their order (sent before delivered).
CREATE TABLE sms_pending_reports (
  provider text NOT NULL,
  provider_message_id text NOT NULL,
  status text NOT NULL,
  reason_code text,
  reason_message text,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (provider, provider_message_id, status)
);
CREATE INDEX sms_pending_reports_received ON sms_pending_reports (received_at);

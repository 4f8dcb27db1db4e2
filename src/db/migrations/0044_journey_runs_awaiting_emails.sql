-- A journey run's EMAIL step is done when its email is sent, not when it is queued: the emails a
-- turn queued are kept on the run, and the journey-runs queue does not take the run again (its next
-- step, or its completion after the last one) while any of them is still QUEUED or SCHEDULED
-- (src/journeys/README.md). A constant default: no table rewrite.
ALTER TABLE journey_runs ADD COLUMN awaiting_email_ids text[] NOT NULL DEFAULT '{}';

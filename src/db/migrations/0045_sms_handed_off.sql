-- A queued message whose hand-off to its provider is unconfirmed (a call unanswered by the batch's
-- deadline, an outcome that could not be written, a lookup that failed): the provider may have it, so
-- the next claim reconciles it instead of sending it again (src/sms/reconcile.ts). A column the
-- retry writes, instead of a prefix of last_error that SQL parsed. A constant default: no table
-- rewrite. (A retry recorded with the old prefix did not count in recorded_attempts, so its next
-- claim still sees it as unconfirmed.)
ALTER TABLE sms_deliveries ADD COLUMN handed_off boolean NOT NULL DEFAULT false;

-- No triggers: a message's queue row and provider ids are deleted by the code that deletes the
-- message, in its transaction (deleteSmsOfTeam in src/sms/queries.ts, for a team's deletion).
DROP TRIGGER sms_messages_deleted ON sms_messages;
DROP FUNCTION sms_messages_deleted();

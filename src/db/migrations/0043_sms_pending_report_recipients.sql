-- The recipient a kept report names (E.164, where the provider gives it): a message left `sent`
-- without its provider's id after an unconfirmed hand-off (src/sms/reconcile.ts) is found by it.
ALTER TABLE sms_pending_reports ADD COLUMN recipient text;

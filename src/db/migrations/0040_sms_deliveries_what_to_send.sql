-- The delivery queue's rows carry what sending needs (number, sender, text, charge), so that the
-- claim answers them from the rows it leases without looking each message up by id
-- (figures: bench/RESULTS.md, "SMS delivery"). They are written with the message and never change.
DELETE FROM sms_deliveries d WHERE NOT EXISTS (SELECT 1 FROM sms_messages m WHERE m.id = d.sms_id);
ALTER TABLE sms_deliveries
  ADD COLUMN to_number text,
  ADD COLUMN sender_id text,
  ADD COLUMN body text,
  ADD COLUMN charge_transaction_id text;
UPDATE sms_deliveries d
  SET to_number = m.to_number, sender_id = m.sender_id, body = m.body, charge_transaction_id = m.charge_transaction_id
  FROM sms_messages m WHERE m.id = d.sms_id;
ALTER TABLE sms_deliveries
  ALTER COLUMN to_number SET NOT NULL,
  ALTER COLUMN sender_id SET NOT NULL,
  ALTER COLUMN body SET NOT NULL;

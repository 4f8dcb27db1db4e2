-- Journey mail joins campaign mail in the bulk delivery lane (emails/delivery.ts): a team's
-- automations, like its campaigns, never stand before its password resets. The lane is a column of
-- its own, as journey mail has no campaign.
ALTER TABLE emails ADD COLUMN bulk boolean NOT NULL DEFAULT false;
UPDATE emails SET bulk = true WHERE campaign_id IS NOT NULL;

DROP INDEX emails_due;
DROP INDEX emails_due_campaigns;
CREATE INDEX emails_due ON emails (run_at) WHERE status IN ('QUEUED', 'SCHEDULED') AND NOT bulk;
CREATE INDEX emails_due_bulk ON emails (run_at) WHERE status IN ('QUEUED', 'SCHEDULED') AND bulk;

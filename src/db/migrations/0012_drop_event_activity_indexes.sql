-- The two email_events indexes of migration 0010 served segments' email activity conditions, which
-- read address_activity since migration 0011. Nothing else reads through them (an email's events
-- are read through email_events_email), and every event written paid for both: sending writes one
-- or two events per email, delivery one or two more.
DROP INDEX IF EXISTS email_events_email_status;
DROP INDEX IF EXISTS email_events_team_status;

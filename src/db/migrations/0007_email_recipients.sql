-- One row per distinct recipient address (to, cc and bcc, lower-cased) of every email, so that
-- "the emails this team sent to this address" is an index lookup (segments' email_activity and
-- email_problem conditions, suppression reads) instead of a scan of the address fields.
CREATE TABLE email_recipients (
  team_id  integer NOT NULL,
  address  text NOT NULL,
  email_id text NOT NULL REFERENCES emails (id) ON DELETE CASCADE,
  PRIMARY KEY (team_id, address, email_id)
);
CREATE INDEX email_recipients_email ON email_recipients (email_id);

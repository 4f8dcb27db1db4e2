-- The inbound spool: every message the SMTP listener takes is written here first, and its 250 is
-- sent once this row committed (src/mx/spool.ts). The row is the job of the inbound-messages
-- queue (src/mx/inbound-queue.ts), which records what the message reports and deletes the row
-- in the same transaction, so a message is acted on exactly once. A message that keeps failing is
-- kept with failed_at and its last error, for an operator to look at.
CREATE TABLE inbound_messages (
  id             bigserial PRIMARY KEY,
  received_at    timestamptz NOT NULL,
  mail_from      text NOT NULL,
  rcpt_to        text[] NOT NULL,
  remote_address text NOT NULL,
  secure         boolean NOT NULL,
  raw            bytea NOT NULL,
  due_at         timestamptz NOT NULL,
  lease_until    timestamptz,
  attempts       integer NOT NULL DEFAULT 0,
  last_error     text,
  failed_at      timestamptz
);
CREATE INDEX inbound_messages_due ON inbound_messages (due_at) WHERE failed_at IS NULL;

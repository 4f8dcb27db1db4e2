-- The SMS delivery queue moves out of sms_messages (figures: bench/RESULTS.md, "SMS delivery").
--
-- A message's first status change used to take it off the queue's index, so PostgreSQL wrote it as a
-- new row version with an entry in every index of the table. Now the queue is its own narrow table,
-- one row per queued message, deleted by the outcome; the provider's message id, which reports look
-- up, has its own table too. No index of sms_messages holds a column that a status change writes, so
-- every status change is a HOT update.
CREATE TABLE sms_deliveries (
  sms_id            text PRIMARY KEY,
  -- The message's team and creation time: a team's queued messages, newest first, are listed here.
  team_id           integer NOT NULL,
  created_at        timestamptz NOT NULL,
  next_attempt_at   timestamptz NOT NULL,
  lease_until       timestamptz,
  attempts          integer NOT NULL DEFAULT 0,
  -- Claims that ended with a recorded retry; fewer than attempts - 1 means a claim vanished (a
  -- worker died mid-send), so the provider may have the message already.
  recorded_attempts integer NOT NULL DEFAULT 0,
  last_error        text
-- The claim's lease stamp is a HOT update when the row's page has room for the new version.
) WITH (fillfactor = 50);
CREATE INDEX sms_deliveries_due ON sms_deliveries (next_attempt_at);
CREATE INDEX sms_deliveries_team_list ON sms_deliveries (team_id, created_at DESC, sms_id DESC);
INSERT INTO sms_deliveries (sms_id, team_id, created_at, next_attempt_at, lease_until, attempts, recorded_attempts,
    last_error)
  SELECT id, team_id, created_at, coalesce(next_attempt_at, created_at), lease_until, attempts, recorded_attempts,
    last_error
  FROM sms_messages WHERE status = 'queued';

CREATE TABLE sms_provider_ids (
  provider            text NOT NULL,
  provider_message_id text NOT NULL,
  sms_id              text NOT NULL,
  PRIMARY KEY (provider, provider_message_id)
);
INSERT INTO sms_provider_ids (provider, provider_message_id, sms_id)
  SELECT provider, provider_message_id, id FROM sms_messages WHERE provider_message_id IS NOT NULL;

-- Both go with their message (what ON DELETE CASCADE would do; the trigger writes nothing else).
-- Not foreign keys: their checks lock the message row at every insert, a write of its own on the
-- send path and in the worker's outcome, which measured as markedly more PostgreSQL time per message.
CREATE FUNCTION sms_messages_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sms_deliveries d USING gone g WHERE d.sms_id = g.id AND g.status = 'queued';
  DELETE FROM sms_provider_ids p USING gone g
    WHERE p.provider = g.provider AND p.provider_message_id = g.provider_message_id;
  RETURN NULL;
END $$;
CREATE TRIGGER sms_messages_deleted AFTER DELETE ON sms_messages
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION sms_messages_deleted();

DROP INDEX sms_messages_due;
DROP INDEX sms_messages_provider_message;
ALTER TABLE sms_messages
  DROP COLUMN next_attempt_at,
  DROP COLUMN lease_until,
  DROP COLUMN attempts,
  DROP COLUMN recorded_attempts,
  DROP COLUMN last_error;

-- The contract sets a reason on every failed or rejected message, and only on those; a report that
-- names no reason gets the plain "unknown" one (sms/reports.ts).
UPDATE sms_messages SET reason_code = 'unknown', reason_message = 'The message could not be delivered.'
  WHERE status IN ('failed', 'rejected') AND reason_code IS NULL;
UPDATE sms_messages SET reason_code = NULL, reason_message = NULL
  WHERE status NOT IN ('failed', 'rejected') AND reason_code IS NOT NULL;
ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_reason_when_unsuccessful
  CHECK ((status IN ('failed', 'rejected')) = (reason_code IS NOT NULL));

-- Lists of queued messages read the queue's index; lists of failed or rejected ones find them
-- through the reason, which only they have. An index naming the status would make every status
-- change a new row version in every index.
DROP INDEX sms_messages_team_status_list;
CREATE INDEX sms_messages_team_unsuccessful_list ON sms_messages (team_id, created_at DESC, id DESC)
  WHERE reason_code IS NOT NULL;

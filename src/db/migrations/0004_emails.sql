-- Emails: the email row is the delivery job (status QUEUED or SCHEDULED, due at run_at, leased while a
-- worker sends it). email_events is its history (contract: emailEvents, latestStatus = newest).
-- suppressions: addresses a team does not send to. team_daily_usage: recipients counted against the
-- plan's daily and monthly send limits (reserved atomically at send time).

CREATE TABLE emails (
  id             text PRIMARY KEY,
  team_id        integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  domain_id      integer REFERENCES domains (id) ON DELETE SET NULL,
  -- the key that sent it (a sending access key reads only the emails it sent)
  api_key_id     text,
  "from"         text NOT NULL,
  -- each as sent: a JSON string or array of strings (contract: to as sent)
  "to"           jsonb,
  cc             jsonb,
  bcc            jsonb,
  reply_to       jsonb,
  subject        text NOT NULL,
  html           text,
  text           text,
  headers        jsonb,
  template_id    text,
  in_reply_to_id text,
  type           text NOT NULL DEFAULT 'TRANSACTIONAL' CHECK (type IN ('TRANSACTIONAL', 'MARKETING')),
  scheduled_at   timestamptz,
  -- the latest status (same values as email_events.status)
  status         text NOT NULL,
  -- when delivery is due
  run_at         timestamptz NOT NULL,
  lease_until    timestamptz,
  attempts       integer NOT NULL DEFAULT 0,
  last_error     text,
  message_id     text,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
-- The delivery queue: rows waiting to be sent (a SCHEDULED email is due at run_at = scheduledAt too).
CREATE INDEX emails_due ON emails (run_at) WHERE status IN ('QUEUED', 'SCHEDULED');
-- The list: a team's emails, newest first.
CREATE INDEX emails_team_created ON emails (team_id, created_at DESC, id DESC);

CREATE TABLE email_events (
  id         bigserial PRIMARY KEY,
  team_id    integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  email_id   text NOT NULL REFERENCES emails (id) ON DELETE CASCADE,
  status     text NOT NULL,
  data       jsonb,
  created_at timestamptz NOT NULL
);
CREATE INDEX email_events_email ON email_events (email_id, id);

CREATE TABLE email_attachments (
  email_id text NOT NULL REFERENCES emails (id) ON DELETE CASCADE,
  position integer NOT NULL,
  filename text NOT NULL,
  content  bytea NOT NULL,
  PRIMARY KEY (email_id, position)
);

CREATE TABLE suppressions (
  team_id    integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  -- lower-cased address
  email      text NOT NULL,
  reason     text NOT NULL,
  email_id   text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (team_id, email)
);

CREATE TABLE team_daily_usage (
  team_id       integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  day           date NOT NULL,
  transactional integer NOT NULL DEFAULT 0,
  marketing     integer NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, day)
);

-- Emails: the email row is the delivery job (status QUEUED or SCHEDULED, due at run_at, leased while a
-- worker sends it). email_events is its history (contract: emailEvents, latestStatus = newest).
-- Beside them: recipients, attachments, the tally of opens, suppressions, the daily send counters,
-- the log transport's outbox, and what each address did with a team's mail (address_activity).

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

-- An email's events are read through email_events_email only: every index here is paid by every
-- event written (sending writes one or two per email, delivery one or two more).
CREATE TABLE email_events (
  id         bigserial PRIMARY KEY,
  team_id    integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  email_id   text NOT NULL REFERENCES emails (id) ON DELETE CASCADE,
  status     text NOT NULL,
  data       jsonb,
  created_at timestamptz NOT NULL,
  -- OPENED events only (NULL on every other): the tracked copy, '' for an email's opens (a
  -- transactional email is one message to all its recipients), the recipient's address for a
  -- MARKETING copy. Joins the event to its tally in email_opens.
  open_key   text
);
CREATE INDEX email_events_email ON email_events (email_id, id);

CREATE TABLE email_attachments (
  email_id text NOT NULL REFERENCES emails (id) ON DELETE CASCADE,
  position integer NOT NULL,
  filename text NOT NULL,
  content  bytea NOT NULL,
  PRIMARY KEY (email_id, position)
);

-- One row per distinct recipient address (to, cc and bcc, lower-cased) of every email, so that
-- "the emails this team sent to this address" is an index lookup (suppression reads, address
-- activity) instead of a scan of the address fields.
CREATE TABLE email_recipients (
  team_id  integer NOT NULL,
  address  text NOT NULL,
  email_id text NOT NULL REFERENCES emails (id) ON DELETE CASCADE,
  PRIMARY KEY (team_id, address, email_id)
);
CREATE INDEX email_recipients_email ON email_recipients (email_id);

-- One OPENED event per tracked copy (src/tracking/README.md): the first open of a copy inserts the
-- event; later opens only update the copy's tally here, which reads of the event merge into its data
-- (openCount, lastOpenedAt, the latest later opens). Repeated opens are the bulk of pixel traffic,
-- and an update of one small row fires none of the insert work on email_events nor its foreign-key
-- checks. Its own table, not the event's data, so that events stay insert-only and each open is a
-- HOT update: no index covers the columns it changes, and the fillfactor leaves room on the page
-- for the new row version (src/emails/email-opens.ts).
CREATE TABLE email_opens (
  email_id           text NOT NULL REFERENCES emails (id) ON DELETE CASCADE,
  open_key           text NOT NULL,
  open_count         integer NOT NULL,
  last_opened_at     timestamptz NOT NULL,
  -- the latest opens, oldest first, at most 11 (the first open among them until 10 later ones push
  -- it out): two arrays an update appends to and slices, rather than one jsonb list rewritten whole
  recent_at          timestamptz[] NOT NULL,
  recent_user_agents text[] NOT NULL,
  -- when this copy last moved its recipients' address_activity.last_opened_at; a later open moves
  -- it again only when more than an hour past this, so the hourly rule needs no probe of
  -- address_activity
  activity_at        timestamptz NOT NULL,
  PRIMARY KEY (email_id, open_key)
) WITH (fillfactor = 50);

CREATE TABLE suppressions (
  team_id    integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  -- lower-cased address
  email      text NOT NULL,
  reason     text NOT NULL,
  email_id   text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (team_id, email)
);
-- The admin API's suppression list, newest first per team (src/admin/suppressions-routes.ts).
CREATE INDEX suppressions_team_created ON suppressions (team_id, created_at DESC, email DESC);

-- Recipients counted against the plan's daily and monthly send limits, one row per team and UTC
-- day, reserved by queueEmails in the transaction that stores the emails: the row is locked, the
-- day's and the month's totals checked, the recipients added. See src/emails/limits.ts.
CREATE TABLE team_daily_usage (
  team_id       integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  day           date NOT NULL,
  transactional integer NOT NULL DEFAULT 0,
  marketing     integer NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, day)
);

-- The outbox: what HERALD_MAIL_TRANSPORT=log "sent" (nothing leaves the machine), kept so an operator
-- can read it with `herald admin outbox` (GET /admin/v1/outbox). team_id and email_id come from the
-- return path of the envelope; a message whose email is gone keeps its row with them null.
CREATE TABLE outbox (
  id            bigserial PRIMARY KEY,
  team_id       integer REFERENCES teams (id) ON DELETE CASCADE,
  email_id      text,
  envelope_from text NOT NULL,
  envelope_to   jsonb NOT NULL,
  subject       text,
  raw           bytea NOT NULL,
  created_at    timestamptz NOT NULL
);
CREATE INDEX outbox_created ON outbox (created_at DESC, id DESC);
CREATE INDEX outbox_team_created ON outbox (team_id, created_at DESC, id DESC);

-- What each address did with a team's mail, one row per (team, address): the latest time of each
-- kind of event on any email of the team to that address. Segments' email_activity (received,
-- opened, clicked: ever / never / in_last_days) and email_problem (bounced, complained) conditions
-- read this row instead of joining email_recipients to email_events for every contact (figures in
-- bench/RESULTS.md). "An event of this kind at or after T" is exactly "the latest such event is at
-- or after T", so the summary answers the same question. Only the later of two times is kept, so
-- events arriving out of order leave the right answer.
CREATE TABLE address_activity (
  team_id            integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  -- lower-cased, as in email_recipients and contacts
  address            text NOT NULL,
  last_received_at   timestamptz,  -- SENT or DELIVERED
  last_opened_at     timestamptz,
  last_clicked_at    timestamptz,
  last_bounced_at    timestamptz,
  last_complained_at timestamptz,
  PRIMARY KEY (team_id, address)
);

-- "Since T" as a range of an index, read index-only (address included): the planner hashes the
-- addresses and probes them with the contacts it scans (a segment count), or probes the primary key
-- per contact when few contacts are candidates.
CREATE INDEX address_activity_received ON address_activity (team_id, last_received_at) INCLUDE (address) WHERE last_received_at IS NOT NULL;
CREATE INDEX address_activity_opened ON address_activity (team_id, last_opened_at) INCLUDE (address) WHERE last_opened_at IS NOT NULL;
CREATE INDEX address_activity_clicked ON address_activity (team_id, last_clicked_at) INCLUDE (address) WHERE last_clicked_at IS NOT NULL;
CREATE INDEX address_activity_bounced ON address_activity (team_id) INCLUDE (address) WHERE last_bounced_at IS NOT NULL;
CREATE INDEX address_activity_complained ON address_activity (team_id) INCLUDE (address) WHERE last_complained_at IS NOT NULL;

-- Kept on every insert into email_events, in the writer's own transaction, by a statement-level
-- trigger: one upsert per (team, address) for all the events a statement inserts (group commit of
-- opens and clicks, batches of bounce reports, a delivery's per-recipient events). Addresses are
-- locked in sorted order, so two writers touching the same addresses lock them in the same order;
-- a row is only rewritten when one of its times moves forward.
-- A trigger until the one statement builder every event insert goes through
-- (webhooks/event-call-queries.ts) adds this upsert as a CTE of its own (issue 42).
CREATE FUNCTION address_activity_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO address_activity AS a (team_id, address, last_received_at, last_opened_at, last_clicked_at, last_bounced_at, last_complained_at)
  SELECT r.team_id, r.address,
         max(n.created_at) FILTER (WHERE n.status IN ('SENT', 'DELIVERED')),
         max(n.created_at) FILTER (WHERE n.status = 'OPENED'),
         max(n.created_at) FILTER (WHERE n.status = 'CLICKED'),
         max(n.created_at) FILTER (WHERE n.status = 'BOUNCED'),
         max(n.created_at) FILTER (WHERE n.status = 'COMPLAINED')
  FROM new_events n
  JOIN email_recipients r ON r.email_id = n.email_id AND r.team_id = n.team_id
  WHERE n.status IN ('SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED')
  GROUP BY r.team_id, r.address
  ORDER BY r.team_id, r.address
  ON CONFLICT (team_id, address) DO UPDATE SET
    last_received_at = greatest(a.last_received_at, excluded.last_received_at),
    last_opened_at = greatest(a.last_opened_at, excluded.last_opened_at),
    last_clicked_at = greatest(a.last_clicked_at, excluded.last_clicked_at),
    last_bounced_at = greatest(a.last_bounced_at, excluded.last_bounced_at),
    last_complained_at = greatest(a.last_complained_at, excluded.last_complained_at)
  WHERE excluded.last_received_at > a.last_received_at IS NOT FALSE AND excluded.last_received_at IS NOT NULL
     OR excluded.last_opened_at > a.last_opened_at IS NOT FALSE AND excluded.last_opened_at IS NOT NULL
     OR excluded.last_clicked_at > a.last_clicked_at IS NOT FALSE AND excluded.last_clicked_at IS NOT NULL
     OR excluded.last_bounced_at > a.last_bounced_at IS NOT FALSE AND excluded.last_bounced_at IS NOT NULL
     OR excluded.last_complained_at > a.last_complained_at IS NOT FALSE AND excluded.last_complained_at IS NOT NULL;
  RETURN NULL;
END
$$;

CREATE TRIGGER email_events_address_activity AFTER INSERT ON email_events
  REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION address_activity_record();

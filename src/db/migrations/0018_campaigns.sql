-- Campaigns: one email to the subscribed contacts of a book (or a segment of it). The campaign row
-- is the fan-out's job (SCHEDULED or RUNNING, due at next_batch_at, leased); its recipients are
-- the snapshot taken when it starts, each given its email in the transaction that stores that email,
-- so no contact gets two and none is skipped whatever stops a worker. Its counters are kept as they
-- change, so reading a campaign counts nothing: total and unsubscribed here, the counts of its
-- emails' events by analytics (0019_campaign_counts.sql).

CREATE TABLE campaigns (
  id                   text PRIMARY KEY,
  team_id              integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name                 text NOT NULL,
  "from"               text NOT NULL,
  -- The verified domain of `from`: a key limited to one domain sees only its campaigns.
  domain_id            integer NOT NULL,
  subject              text NOT NULL,
  preview_text         text,
  -- No foreign keys: a book or segment deleted after the campaign was sent stays named here.
  contact_book_id      text NOT NULL,
  segment_id           text,
  template_id          text,
  html                 text,
  content              text,
  reply_to             jsonb NOT NULL DEFAULT '[]',
  cc                   jsonb NOT NULL DEFAULT '[]',
  bcc                  jsonb NOT NULL DEFAULT '[]',
  status               text NOT NULL CHECK (status IN ('DRAFT', 'SCHEDULED', 'RUNNING', 'PAUSED', 'SENT')),
  paused_reason        text CHECK (paused_reason IN ('MANUAL', 'QUOTA')),
  scheduled_at         timestamptz,
  batch_size           integer NOT NULL CHECK (batch_size BETWEEN 1 AND 100000),
  batch_window_minutes integer NOT NULL CHECK (batch_window_minutes BETWEEN 0 AND 1440),
  -- The fan-out's claim: due while SCHEDULED or RUNNING, or PAUSED for the quota (it goes on by itself).
  next_batch_at        timestamptz,
  lease_until          timestamptz,
  attempts             integer NOT NULL DEFAULT 0,
  last_error           text,
  started_at           timestamptz,
  finished_at          timestamptz,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL
);

CREATE INDEX campaigns_team_list ON campaigns (team_id, created_at DESC, id DESC);
CREATE INDEX campaigns_due ON campaigns (next_batch_at)
  WHERE status IN ('SCHEDULED', 'RUNNING') OR (status = 'PAUSED' AND paused_reason = 'QUOTA');
CREATE INDEX campaigns_team_book ON campaigns (team_id, contact_book_id) WHERE status IN ('SCHEDULED', 'RUNNING');
CREATE INDEX campaigns_team_segment ON campaigns (team_id, segment_id) WHERE status IN ('SCHEDULED', 'RUNNING');

-- A campaign's own counters, a row of their own (as journey_stats): they change while the fan-out
-- or an unsubscribe holds other rows, never the campaign's.
CREATE TABLE campaign_stats (
  campaign_id  text PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
  team_id      integer NOT NULL,
  total        integer NOT NULL DEFAULT 0,
  unsubscribed integer NOT NULL DEFAULT 0
);

-- The snapshot: who the campaign goes to, and the email each one got (null until its batch).
CREATE TABLE campaign_recipients (
  campaign_id text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  contact_id  text NOT NULL,
  email       text NOT NULL,
  email_id    text,
  PRIMARY KEY (campaign_id, contact_id)
);
CREATE INDEX campaign_recipients_unsent ON campaign_recipients (campaign_id, contact_id) WHERE email_id IS NULL;

-- The campaign an email belongs to (its GET, its webhooks, the email_activity segment condition).
ALTER TABLE emails ADD COLUMN campaign_id text;
CREATE INDEX emails_team_campaign ON emails (team_id, campaign_id, created_at DESC) WHERE campaign_id IS NOT NULL;

-- Campaign mail is delivered in a lane of its own (emails/delivery.ts): each lane's claim walks its
-- own due index, so a campaign's backlog is never in the way of transactional mail.
DROP INDEX emails_due;
CREATE INDEX emails_due ON emails (run_at) WHERE status IN ('QUEUED', 'SCHEDULED') AND campaign_id IS NULL;
CREATE INDEX emails_due_campaigns ON emails (run_at) WHERE status IN ('QUEUED', 'SCHEDULED') AND campaign_id IS NOT NULL;

-- SMS: the message row (sms_messages) and, while it is queued, its delivery job (sms_deliveries,
-- due at next_attempt_at, leased). The charge is a wallet ledger row taken in the transaction that
-- stores the message. Why the tables are shaped for HOT updates: bench/RESULTS.md, "SMS delivery".

-- Every status change is a HOT update: no index of this table holds a column a status change writes
-- (the queue and the provider's ids have tables of their own). The worker writes a batch of
-- neighbouring rows `sent` in one transaction, so a page needs room for a new version of each of its
-- rows, larger by the provider's message id, before any old one can be pruned: 45% leaves room.
CREATE TABLE sms_messages (
  id                    text PRIMARY KEY,
  team_id               integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  api_key_id            text,
  -- The full number is needed to send; responses mask it and logs never carry it.
  to_number             text NOT NULL,
  -- The number without its last four digits: the prefix whose bursts signal SMS pumping.
  to_prefix             text NOT NULL,
  country               text NOT NULL,
  sender_id             text NOT NULL,
  body                  text NOT NULL,
  encoding              text NOT NULL CHECK (encoding IN ('GSM-7', 'UCS-2')),
  segments              integer NOT NULL CHECK (segments > 0),
  currency              text NOT NULL,
  charge_minor          bigint NOT NULL CHECK (charge_minor >= 0),
  charge_transaction_id text,
  status                text NOT NULL CHECK (status IN ('queued', 'sent', 'delivered', 'failed', 'rejected')),
  reason_code           text,
  reason_message        text,
  provider              text,
  provider_message_id   text,
  client_ip_hash        bytea,
  risk_score            integer NOT NULL DEFAULT 0,
  sent_at               timestamptz,
  delivered_at          timestamptz,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  -- The contract sets a reason on every failed or rejected message, and only on those; a report that
  -- names no reason gets the plain "unknown" one (sms/reports.ts).
  CONSTRAINT sms_messages_reason_when_unsuccessful CHECK ((status IN ('failed', 'rejected')) = (reason_code IS NOT NULL))
) WITH (fillfactor = 45);

CREATE INDEX sms_messages_team_list ON sms_messages (team_id, created_at DESC, id DESC);
CREATE INDEX sms_messages_team_prefix ON sms_messages (team_id, to_prefix, created_at);
CREATE INDEX sms_messages_team_client_ip ON sms_messages (team_id, client_ip_hash, created_at)
  WHERE client_ip_hash IS NOT NULL;
-- The risk signal "a destination country the team has never sent to" asks whether a (team, country)
-- row exists. With few teams the planner expects many matches and answers that EXISTS with a
-- sequential scan, which reads the whole table when there is none (a new country). With created_at
-- in the index the check is written as `ORDER BY created_at LIMIT 1`, which only the index serves
-- without a sort, so the planner keeps to the index however skewed the table is.
CREATE INDEX sms_messages_team_country ON sms_messages (team_id, country, created_at);
-- Lists of queued messages read the queue's index; lists of failed or rejected ones find them
-- through the reason, which only they have. An index naming the status would make every status
-- change a new row version in every index.
CREATE INDEX sms_messages_team_unsuccessful_list ON sms_messages (team_id, created_at DESC, id DESC)
  WHERE reason_code IS NOT NULL;

-- The delivery queue: one narrow row per queued message, deleted by the outcome. It carries what
-- sending needs (number, sender, text, charge), written with the message and never changed, so that
-- the claim answers from the rows it leases without looking each message up by id.
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
  last_error        text,
  -- The hand-off of the last claim is unconfirmed (a call unanswered by the batch's deadline, an
  -- outcome that could not be written, a lookup that failed): the provider may have the message, so
  -- the next claim reconciles it instead of sending it again (src/sms/reconcile.ts).
  handed_off        boolean NOT NULL DEFAULT false,
  to_number         text NOT NULL,
  sender_id         text NOT NULL,
  body              text NOT NULL,
  charge_transaction_id text
-- The claim's lease stamp is a HOT update when the row's page has room for the new version.
) WITH (fillfactor = 50);
CREATE INDEX sms_deliveries_due ON sms_deliveries (next_attempt_at);
CREATE INDEX sms_deliveries_team_list ON sms_deliveries (team_id, created_at DESC, sms_id DESC);

-- The provider's message id, which reports look up. A hash index instead of a B-tree key: the ids
-- are random, so each insert into a B-tree descended to a random leaf, comparing text at every
-- level; a hash index puts the entry straight into its bucket's page, a cheaper write with less WAL.
-- It covers one column and enforces nothing: a lookup filters on the provider as well, and an id
-- that a provider gives twice does not fail the whole batch's outcome.
CREATE TABLE sms_provider_ids (
  provider            text NOT NULL,
  provider_message_id text NOT NULL,
  sms_id              text NOT NULL
);
CREATE INDEX sms_provider_ids_lookup ON sms_provider_ids USING hash (provider_message_id);

-- Both go with their message, deleted by the code that deletes it, in its transaction
-- (deleteSmsOfTeam in src/sms/queries.ts). Not foreign keys: their checks lock the message row at
-- every insert, a write of its own on the send path and in the worker's outcome, which measured as
-- markedly more PostgreSQL time per message.

-- Delivery reports that name a provider id no message has yet: the worker records a batch's ids
-- with its outcomes, after its slowest call, and a provider may report before that. Such a report
-- waits here and is applied when the id appears (src/sms/pending-reports.ts); one that never
-- matches is purged after a few days. One row per id and status, so duplicates are kept once and
-- the statuses can be applied in their order (sent before delivered).
CREATE TABLE sms_pending_reports (
  provider text NOT NULL,
  provider_message_id text NOT NULL,
  status text NOT NULL,
  reason_code text,
  reason_message text,
  received_at timestamptz NOT NULL,
  -- The recipient the report names (E.164, where the provider gives it): a message left `sent`
  -- without its provider's id after an unconfirmed hand-off (src/sms/reconcile.ts) is found by it.
  recipient text,
  PRIMARY KEY (provider, provider_message_id, status)
);
CREATE INDEX sms_pending_reports_received ON sms_pending_reports (received_at);

-- SMS parts per team and UTC month: the volume that picks the price tier.
CREATE TABLE sms_monthly_volume (
  team_id  integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  month    date NOT NULL,
  parts    bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, month)
);

-- What the `log` provider kept instead of sending: the operator's outbox (full number and text).
CREATE TABLE sms_outbox (
  id         text PRIMARY KEY,
  sms_id     text NOT NULL UNIQUE,
  to_number  text NOT NULL,
  sender_id  text NOT NULL,
  body       text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX sms_outbox_created ON sms_outbox (created_at DESC, id DESC);
CREATE INDEX sms_outbox_to ON sms_outbox (to_number, created_at DESC);

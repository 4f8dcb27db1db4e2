-- One-time codes (verifications). The code itself is never stored: only HMAC('code', id:code).
-- A verification refused by risk scoring is kept (status 'refused', no code) so that its signals
-- can be read back; it has no email and no SMS.

CREATE TABLE verifications (
  id                 text PRIMARY KEY,
  team_id            integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  api_key_id         text,
  channel            text NOT NULL CHECK (channel IN ('email', 'sms')),
  -- Email address (lower-cased) or E.164 number: the recipient the velocity signals count.
  to_address         text NOT NULL,
  -- SMS only: the number without its last four digits, and its country.
  to_prefix          text,
  country            text,
  status             text NOT NULL CHECK (status IN ('pending', 'verified', 'expired', 'failed', 'refused')),
  code_hash          bytea,
  attempts_remaining integer NOT NULL CHECK (attempts_remaining >= 0),
  expires_at         timestamptz NOT NULL,
  email_id           text,
  sms_id             text,
  client_ip_hash     bytea,
  risk_score         integer NOT NULL,
  risk_level         text NOT NULL,
  risk_reasons       jsonb NOT NULL,
  -- The outcome of the last check that changed the row (wrong_code, expired, ...).
  reason             text,
  verified_at        timestamptz,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  CHECK ((status = 'refused') = (code_hash IS NULL))
);

CREATE INDEX verifications_team_to ON verifications (team_id, to_address, created_at);
CREATE INDEX verifications_team_created ON verifications (team_id, created_at DESC);
CREATE INDEX verifications_team_client_ip ON verifications (team_id, client_ip_hash, created_at)
  WHERE client_ip_hash IS NOT NULL;
CREATE INDEX verifications_team_prefix ON verifications (team_id, to_prefix, created_at)
  WHERE to_prefix IS NOT NULL;
-- "A destination country the team has never sent to": created_at in the index so that the check,
-- written as `ORDER BY created_at LIMIT 1`, keeps to the index however skewed the table is (the same
-- reason as sms_messages_team_country in 0012_sms.sql).
CREATE INDEX verifications_team_country ON verifications (team_id, country, created_at)
  WHERE country IS NOT NULL AND status <> 'refused';

-- One-time codes sent per team and UTC month (the usage read's thisMonth.codes): counted by the
-- statement or transaction that stores a verification with its code, so the read never scans
-- verifications. A verification refused by risk scoring has no code and is not counted. Spread over
-- shards (a random one per code, like team_daily_usage) so that concurrent code sends of one team
-- do not queue on one row; the read sums them.
CREATE TABLE verification_monthly_codes (
  team_id  integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  month    date NOT NULL,
  shard    smallint NOT NULL,
  codes    bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, month, shard)
);

-- SMS: the message row is the delivery job (status 'queued', due at next_attempt_at). The charge is
-- a wallet ledger row taken in the transaction that stores the message.

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
  next_attempt_at       timestamptz,
  lease_until           timestamptz,
  attempts              integer NOT NULL DEFAULT 0,
  -- Claims that ended with a recorded retry; fewer than attempts - 1 means a claim vanished (a
  -- worker died mid-send), so the provider may have the message already.
  recorded_attempts     integer NOT NULL DEFAULT 0,
  last_error            text,
  sent_at               timestamptz,
  delivered_at          timestamptz,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);

CREATE INDEX sms_messages_team_list ON sms_messages (team_id, created_at DESC, id DESC);
CREATE INDEX sms_messages_team_status_list ON sms_messages (team_id, status, created_at DESC, id DESC);
CREATE INDEX sms_messages_due ON sms_messages (next_attempt_at) WHERE status = 'queued';
CREATE INDEX sms_messages_team_prefix ON sms_messages (team_id, to_prefix, created_at);
CREATE INDEX sms_messages_team_client_ip ON sms_messages (team_id, client_ip_hash, created_at)
  WHERE client_ip_hash IS NOT NULL;
CREATE INDEX sms_messages_team_country ON sms_messages (team_id, country);
CREATE UNIQUE INDEX sms_messages_provider_message ON sms_messages (provider, provider_message_id)
  WHERE provider_message_id IS NOT NULL;

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

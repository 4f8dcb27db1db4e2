-- Webhooks and their call log. A call is one event on its way to one webhook; the call row is the
-- delivery job (PENDING and due at next_attempt_at, IN_PROGRESS while a worker holds its lease).
-- Calls are inserted by the code that records the event, in its transaction (src/webhooks).

CREATE TABLE webhooks (
  id                   text PRIMARY KEY,
  team_id              integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  url                  text NOT NULL,
  description          text,
  status               text NOT NULL CHECK (status IN ('ACTIVE', 'PAUSED', 'AUTO_DISABLED')),
  -- empty: every event type / every domain (contract: Webhook)
  event_types          text[] NOT NULL DEFAULT '{}',
  domain_ids           integer[] NOT NULL DEFAULT '{}',
  api_version          text,
  -- the signing secret, sealed with the instance key (platform/crypto.ts), and its masked hint
  secret_sealed        text NOT NULL,
  secret_hint          text NOT NULL,
  -- failed attempts since the last success; failing_since is the first of them (auto-disable rule)
  consecutive_failures integer NOT NULL DEFAULT 0,
  failing_since        timestamptz,
  last_failure_at      timestamptz,
  last_success_at      timestamptz,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL
);
CREATE INDEX webhooks_team ON webhooks (team_id, created_at DESC, id DESC);

CREATE TABLE webhook_calls (
  id               text PRIMARY KEY,
  team_id          integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  -- DELETE of a webhook removes its call log (contract)
  webhook_id       text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  type             text NOT NULL,
  -- the exact request body, signed as is on every attempt
  payload          text NOT NULL,
  api_version      text,
  status           text NOT NULL CHECK (status IN ('PENDING', 'IN_PROGRESS', 'DELIVERED', 'FAILED', 'DISCARDED')),
  -- attempts made so far (counted when an attempt starts, so a crashed worker still uses one up)
  attempt          integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  lease_until      timestamptz,
  last_error       text,
  response_status  integer,
  response_time_ms integer,
  -- first 2 KB of the endpoint's answer; headers are never kept
  response_text    text,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
-- The dispatcher: due calls of one webhook, oldest first; and how many each webhook has in flight.
CREATE INDEX webhook_calls_due ON webhook_calls (webhook_id, next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX webhook_calls_in_progress ON webhook_calls (webhook_id, lease_until) WHERE status = 'IN_PROGRESS';
-- The call log, newest first, for the team (also the 30-day retention, team by team) and for one
-- webhook. Every index is paid on each of a call's state changes, so there are no others.
CREATE INDEX webhook_calls_team ON webhook_calls (team_id, created_at DESC, id DESC);
CREATE INDEX webhook_calls_webhook ON webhook_calls (webhook_id, created_at DESC, id DESC);
-- A queue table: every call changes state a few times within seconds. Vacuum it early so the partial
-- indexes of the dispatcher do not fill with entries of rows that have moved on.
ALTER TABLE webhook_calls SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000, autovacuum_analyze_scale_factor = 0.05);

-- Time-ordered ids made in SQL (the calls a set-based fan-out inserts), in the format of
-- platform/ids.ts: 10 characters of milliseconds and 16 random ones, Crockford base32 (lower case).
CREATE FUNCTION herald_new_id(prefix text, at timestamptz) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  t bigint := floor(extract(epoch FROM at) * 1000)::bigint;
  head text := '';
  tail text := '';
  r bytea := uuid_send(gen_random_uuid());
BEGIN
  FOR i IN 1..10 LOOP
    head := substr(alphabet, (t % 32)::int + 1, 1) || head;
    t := t / 32;
  END LOOP;
  FOR i IN 0..15 LOOP
    tail := tail || substr(alphabet, (get_byte(r, i) % 32) + 1, 1);
  END LOOP;
  RETURN prefix || head || tail;
END
$$;

-- ISO 8601 in UTC with milliseconds, as JavaScript's toISOString writes it (payloads built in SQL).
CREATE FUNCTION herald_iso(at timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

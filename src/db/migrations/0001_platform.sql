-- Platform: teams, members, API keys, idempotency entries, periodic chores.

CREATE TABLE teams (
  id                 serial PRIMARY KEY,
  name               text NOT NULL,
  plan               text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro')),
  currency           text NOT NULL DEFAULT 'USD' CHECK (currency IN ('USD', 'NGN', 'KES')),
  sms_enabled        boolean NOT NULL DEFAULT false,
  api_rate_limit     integer NOT NULL DEFAULT 10 CHECK (api_rate_limit > 0),
  stripe_customer_id text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE members (
  id         serial PRIMARY KEY,
  team_id    integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  email      text NOT NULL,
  name       text,
  role       text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX members_team_email ON members (team_id, lower(email));

-- The key itself is never stored: key_hash is HMAC-SHA256(HERALD_SECRET, key).
CREATE TABLE api_keys (
  id         text PRIMARY KEY,
  team_id    integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('full', 'readonly', 'sending', 'sandbox', 'live_ai')),
  name       text,
  key_hash   bytea NOT NULL UNIQUE,
  key_hint   text NOT NULL,
  -- null: made without a member (the admin API, the first start) or its member was removed
  member_id  integer REFERENCES members (id) ON DELETE SET NULL,
  -- a key limited to one of its team's domains (foreign key in 0002_domains.sql)
  domain_id  integer,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_team ON api_keys (team_id);

CREATE TABLE idempotency_keys (
  team_id         integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  key             text NOT NULL,
  request_hash    text NOT NULL,
  state           text NOT NULL CHECK (state IN ('in_progress', 'completed')),
  response_status integer,
  response_body   text,
  content_type    text,
  locked_until    timestamptz NOT NULL,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  PRIMARY KEY (team_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

CREATE TABLE chores (
  name        text PRIMARY KEY,
  next_run_at timestamptz NOT NULL,
  lease_until timestamptz,
  last_run_at timestamptz,
  last_error  text
);

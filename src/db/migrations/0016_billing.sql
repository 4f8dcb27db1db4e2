-- Billing (src/billing): how a team pays its plan, the Pro months paid from the wallet, the
-- deployment's invoice numbers, and the audit log of billing reads.

-- The ledger's PRO_MONTH and PRO_UNITS rows (a Pro month, the Pro units past the included amount)
-- are in wallet_transactions' type list (0011_wallet.sql).

-- operator.md: PATCH /teams/{teamId} billingMethod (card, wallet or none). Billing's column on the
-- team row, added here so that the team table stays the platform's.
ALTER TABLE teams ADD COLUMN billing_method text NOT NULL DEFAULT 'none'
  CONSTRAINT teams_billing_method CHECK (billing_method IN ('card', 'wallet', 'none'));

-- Pro months paid from the wallet, append-only: each transition of a team's wallet plan is a row
-- (PAID, GRACE, LAPSED, STOPPED), never an edit; the newest row (highest seq) is the state.
CREATE TABLE pro_month_events (
  team_id          integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  seq              integer NOT NULL CHECK (seq > 0),
  kind             text NOT NULL CHECK (kind IN ('PAID', 'GRACE', 'LAPSED', 'STOPPED')),
  -- The Pro month this row is about: [period_start, period_end).
  period_start     timestamptz NOT NULL,
  period_end       timestamptz NOT NULL,
  amount_minor     bigint NOT NULL,
  currency         text NOT NULL,
  grace_started_at timestamptz,
  grace_ends_at    timestamptz,
  -- PAID rows: the wallet row that paid the month and its invoice number (sequential per deployment).
  transaction_id   text REFERENCES wallet_transactions (id),
  invoice_number   text UNIQUE,
  created_at       timestamptz NOT NULL,
  PRIMARY KEY (team_id, seq)
);
-- The renewal chore: teams whose newest row is due (PAID at period_end, GRACE at grace_ends_at).
CREATE INDEX pro_month_events_period_end ON pro_month_events (period_end);

-- Gapless counters of the deployment (Pro month invoice numbers): a row locked and moved in the
-- transaction that uses the number, so a rolled-back payment leaves no hole.
CREATE TABLE billing_counters (
  name  text PRIMARY KEY,
  value bigint NOT NULL
);
INSERT INTO billing_counters (name, value) VALUES ('pro_month_invoice', 0);

-- Pro units charged to the wallet, once a day: how many units of the month were charged so far.
CREATE TABLE pro_unit_charges (
  team_id        integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  month          date NOT NULL,
  units_charged  bigint NOT NULL DEFAULT 0,
  updated_at     timestamptz NOT NULL,
  PRIMARY KEY (team_id, month)
);

-- Every billing read (contract: "Every read is recorded in the key's audit log"): who, what, when,
-- outcome. Read back newest first with a cursor on (created_at, id).
CREATE TABLE billing_audit_log (
  id          text PRIMARY KEY,
  team_id     integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  api_key_id  text,
  key_name    text,
  key_kind    text NOT NULL,
  member_id   integer,
  method      text NOT NULL,
  path        text NOT NULL,
  query       text NOT NULL,
  status      integer NOT NULL,
  error_code  text,
  created_at  timestamptz NOT NULL
);
CREATE INDEX billing_audit_log_team_recent ON billing_audit_log (team_id, created_at DESC, id DESC);

-- The usage read's SMS spend of the month, kept incrementally: the sum of the team's SMS charges and
-- releases of `month` up to ledger row `through_seq`. A read adds only the rows after it (the
-- ledger's (team_id, seq) index), so a team with a long ledger is not summed again on every read.
CREATE TABLE billing_text_spend (
  team_id     integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  month       date NOT NULL,
  through_seq bigint NOT NULL,
  spend_minor bigint NOT NULL,
  PRIMARY KEY (team_id, month)
);

-- The prepaid wallet (src/wallet): one per team, made at its first top-up or adjustment, in the
-- team's currency at that moment (teams.currency, USD by default, set at creation or PATCH; the
-- admin API refuses a currency change once the wallet exists). Amounts are integers in minor units.
CREATE TABLE wallets (
  team_id    integer PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
  currency   text NOT NULL CHECK (currency IN ('USD', 'NGN', 'KES')),
  -- Charges lock this row (FOR UPDATE); the CHECK is the backstop if code ever forgets to.
  -- The upper bound keeps every amount exact as a JSON number.
  balance    bigint NOT NULL DEFAULT 0 CHECK (balance >= 0 AND balance <= 9007199254740991),
  -- seq of the newest ledger row: the next row takes last_seq + 1 under the lock.
  last_seq   bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The append-only ledger: a row is never updated or deleted. seq numbers a team's rows 1, 2, 3… in
-- the order they took the wallet lock (ids are time-ordered only to the millisecond); balance_after of
-- each row is the previous row's plus amount, and the newest row's equals wallets.balance. created_at
-- never goes backwards along seq, so (created_at, seq) orders the ledger exactly.
CREATE TABLE wallet_transactions (
  id                text PRIMARY KEY,
  team_id           integer NOT NULL REFERENCES wallets (team_id) ON DELETE CASCADE,
  seq               bigint NOT NULL CHECK (seq > 0),
  -- PRO_MONTH, PRO_UNITS: billing's Pro month and Pro units past the included amount, paid from the
  -- wallet (src/billing), appended like every other row.
  type              text NOT NULL CONSTRAINT wallet_transactions_type CHECK (type IN (
                      'TOP_UP', 'SMS_CHARGE', 'SMS_RELEASE', 'SENDER_ID_FEE', 'SENDER_ID_REFUND',
                      'ADJUSTMENT', 'REVERSAL', 'PRO_MONTH', 'PRO_UNITS')),
  amount            bigint NOT NULL CHECK (amount <> 0),
  balance_after     bigint NOT NULL CHECK (balance_after >= 0),
  currency          text NOT NULL,
  reference         text NOT NULL,
  receipt_reference text UNIQUE,
  description       text,
  -- The row this one gives back (a reversal, an SMS release, a sender ID refund): at most once.
  reverses_id       text UNIQUE REFERENCES wallet_transactions (id),
  created_at        timestamptz NOT NULL
);
-- Idempotency: one top-up per reference, one charge and one release per SMS, one fee per sender ID.
CREATE UNIQUE INDEX wallet_transactions_reference ON wallet_transactions (team_id, type, reference);
CREATE UNIQUE INDEX wallet_transactions_seq ON wallet_transactions (team_id, seq);
-- The billing reads: a team's ledger newest first between two times, cursor on (created_at, seq).
CREATE INDEX wallet_transactions_team_recent ON wallet_transactions (team_id, created_at DESC, seq DESC);

CREATE TABLE sender_ids (
  id                 text PRIMARY KEY,
  team_id            integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  sender_id          text NOT NULL,
  country            text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  status             text NOT NULL DEFAULT 'APPROVED' CHECK (status IN ('APPROVED')),
  fee_transaction_id text REFERENCES wallet_transactions (id),
  created_at         timestamptz NOT NULL,
  deleted_at         timestamptz
);
CREATE UNIQUE INDEX sender_ids_active ON sender_ids (team_id, country, lower(sender_id)) WHERE deleted_at IS NULL;

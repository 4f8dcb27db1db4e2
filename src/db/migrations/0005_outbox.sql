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

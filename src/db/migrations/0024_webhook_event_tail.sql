-- What `herald admin webhooks tail` reads (GET /admin/v1/teams/{teamId}/events): a team's events as
-- recorded, the body a webhook would receive, whether or not the team has a webhook. webhook_calls
-- holds an event only once per subscribed webhook, so a team without one records nothing there.
-- recordEvents and the set-based email writers (src/webhooks/event-call-queries.ts) insert each event
-- here too, in the same statement as its calls, but only for a team whose tail is open: every read
-- of the tail keeps it open for a minute, so a team nobody tails costs one probe of an empty table.
CREATE TABLE webhook_tails (
  team_id    integer PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
  open_until timestamptz NOT NULL
);

CREATE TABLE webhook_tail_events (
  id         bigint GENERATED ALWAYS AS IDENTITY,
  team_id    integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  -- The writing transaction. Ids are taken before commit, so a reader going by id alone could step
  -- past one that commits late; the tail reads only rows of transactions older than every running
  -- one (pg_snapshot_xmin), in (xid, id) order, and so never skips a row.
  xid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
  type       text NOT NULL,
  domain_id  integer,
  -- the envelope {type, createdAt, data}, exactly as a call's body
  payload    text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_tail_events_team ON webhook_tail_events (team_id, xid, id);

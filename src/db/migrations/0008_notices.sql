-- Notices to a team's owner and admins (a webhook added, repointed, removed or auto-disabled). The
-- row is written in the transaction of the change it reports and is the delivery job of the
-- team-notices queue, so a notice is never lost nor sent for a change that rolled back.
CREATE TABLE team_notices (
  id          bigserial PRIMARY KEY,
  team_id     integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  kind        text NOT NULL,
  recipients  text[] NOT NULL,
  subject     text NOT NULL,
  text        text NOT NULL,
  due_at      timestamptz NOT NULL,
  lease_until timestamptz,
  attempts    integer NOT NULL DEFAULT 0,
  sent_at     timestamptz,
  last_error  text,
  created_at  timestamptz NOT NULL
);
CREATE INDEX team_notices_due ON team_notices (due_at) WHERE sent_at IS NULL;
CREATE INDEX team_notices_team ON team_notices (team_id, created_at DESC);

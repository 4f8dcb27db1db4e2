-- Email analytics (GET /v1/analytics/email-time-series and /reputation-metrics) read these counters
-- instead of scanning emails or events: one row per team, UTC day of the event, sending domain (0 when
-- the email has none) and shard. Counts are EMAILS, not events (src/analytics/README.md):
--   sent         the email's first SENT or DELIVERED event (handed to a relay, or accepted by the
--                recipient's server when delivering directly, which writes DELIVERED only)
--   delivered    its first DELIVERED event
--   opened, clicked, bounced, complained
--                its first event of that status (repeated opens, one BOUNCED event per recipient, …
--                count the email once)
--   hard_bounced its first BOUNCED event: every BOUNCED in Herald is permanent (a 5xx, or still
--                deferred after 48 hours); DELIVERY_DELAYED is the temporary kind and is not counted.
--                Its own column so reputation can stop counting a future soft kind without a migration.
--
-- Shards: a team's events of one day and domain would otherwise all update one row, and each writer
-- holds that row's lock until it commits (delivery writes every email in its own transaction). The
-- shard is the writing backend's pid modulo 8, so concurrent writers almost never share a row, and
-- one statement touches one shard per (team, day, domain). Readers sum the shards.
CREATE TABLE email_daily_stats (
  team_id      integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  day          date NOT NULL,
  domain_id    integer NOT NULL DEFAULT 0,
  shard        smallint NOT NULL DEFAULT 0,
  sent         integer NOT NULL DEFAULT 0,
  delivered    integer NOT NULL DEFAULT 0,
  opened       integer NOT NULL DEFAULT 0,
  clicked      integer NOT NULL DEFAULT 0,
  bounced      integer NOT NULL DEFAULT 0,
  hard_bounced integer NOT NULL DEFAULT 0,
  complained   integer NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, day, domain_id, shard)
);

-- Statement-level with a transition table: one call per INSERT statement, however many events it
-- writes (the send path writes an email's QUEUED events in batches of up to 64 sends; delivery one
-- statement per email with one event per bounced recipient). "First of its kind for the email" is a
-- probe of email_events_email (email_id, id) for an earlier event: the trigger runs after the whole
-- statement, so events inserted together see each other and only the lowest id counts. Writers of
-- later events (recordEmailEvent) lock the email row first, so two first opens cannot both count.
-- A trigger until the one statement builder every event insert goes through
-- (webhooks/event-call-queries.ts) adds this count as a CTE of its own (issue 42). The same counts
-- from events already stored: src/analytics/daily-stats-backfill-queries.ts.
CREATE FUNCTION email_daily_stats_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO email_daily_stats AS s (team_id, day, domain_id, shard, sent, delivered, opened, clicked, bounced, hard_bounced, complained)
  SELECT f.team_id, f.day, f.domain_id, (pg_backend_pid() % 8)::smallint,
         count(*) FILTER (WHERE f.status = 'SENT' OR (f.status = 'DELIVERED' AND NOT f.after_sent)),
         count(*) FILTER (WHERE f.status = 'DELIVERED'),
         count(*) FILTER (WHERE f.status = 'OPENED'),
         count(*) FILTER (WHERE f.status = 'CLICKED'),
         count(*) FILTER (WHERE f.status = 'BOUNCED'),
         count(*) FILTER (WHERE f.status = 'BOUNCED'),
         count(*) FILTER (WHERE f.status = 'COMPLAINED')
  FROM (
    SELECT n.team_id, (n.created_at AT TIME ZONE 'UTC')::date AS day, coalesce(m.domain_id, 0) AS domain_id, n.status,
           n.status = 'DELIVERED' AND EXISTS (
             SELECT 1 FROM email_events p WHERE p.email_id = n.email_id AND p.id < n.id AND p.status = 'SENT') AS after_sent
    FROM new_events n
    JOIN emails m ON m.id = n.email_id AND m.team_id = n.team_id
    WHERE n.status IN ('SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED')
      -- A SENT after a DELIVERED is not a second hand-off either.
      AND NOT EXISTS (
        SELECT 1 FROM email_events p
        WHERE p.email_id = n.email_id AND p.id < n.id AND (p.status = n.status OR (n.status = 'SENT' AND p.status = 'DELIVERED')))
  ) f
  GROUP BY f.team_id, f.day, f.domain_id
  -- Rows in key order, so concurrent statements lock shared rows in the same order.
  ORDER BY f.team_id, f.day, f.domain_id
  ON CONFLICT (team_id, day, domain_id, shard) DO UPDATE SET
    sent = s.sent + excluded.sent,
    delivered = s.delivered + excluded.delivered,
    opened = s.opened + excluded.opened,
    clicked = s.clicked + excluded.clicked,
    bounced = s.bounced + excluded.bounced,
    hard_bounced = s.hard_bounced + excluded.hard_bounced,
    complained = s.complained + excluded.complained;
  RETURN NULL;
END
$$;

CREATE TRIGGER email_events_daily_stats AFTER INSERT ON email_events
  REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION email_daily_stats_record();

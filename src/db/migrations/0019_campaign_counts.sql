-- A campaign's email counts (GET /v1/campaigns reads them through analytics/index.ts), kept as events
-- arrive by the statement that keeps the daily counts (0010_analytics.sql), with the same rule: an
-- email counts once per kind, at its first event of that kind; sent also at a DELIVERED without a
-- SENT before it (direct delivery). Sharded by backend the same way, so that delivery's many small
-- transactions do not queue on one row per campaign; readers sum the shards. The trigger is the one
-- 0010 made (no new trigger): its function now writes both tables from one pass over the events.
CREATE TABLE email_campaign_counts (
  campaign_id  text NOT NULL,
  shard        smallint NOT NULL,
  team_id      integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  sent         integer NOT NULL DEFAULT 0,
  delivered    integer NOT NULL DEFAULT 0,
  opened       integer NOT NULL DEFAULT 0,
  clicked      integer NOT NULL DEFAULT 0,
  bounced      integer NOT NULL DEFAULT 0,
  hard_bounced integer NOT NULL DEFAULT 0,
  complained   integer NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_id, shard)
);

CREATE OR REPLACE FUNCTION email_daily_stats_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH firsts AS (
    SELECT n.team_id, (n.created_at AT TIME ZONE 'UTC')::date AS day, coalesce(m.domain_id, 0) AS domain_id,
           m.campaign_id, n.status,
           n.status = 'DELIVERED' AND EXISTS (
             SELECT 1 FROM email_events p WHERE p.email_id = n.email_id AND p.id < n.id AND p.status = 'SENT') AS after_sent
    FROM new_events n
    JOIN emails m ON m.id = n.email_id AND m.team_id = n.team_id
    WHERE n.status IN ('SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED')
      -- A SENT after a DELIVERED is not a second hand-off either.
      AND NOT EXISTS (
        SELECT 1 FROM email_events p
        WHERE p.email_id = n.email_id AND p.id < n.id AND (p.status = n.status OR (n.status = 'SENT' AND p.status = 'DELIVERED')))
  ),
  daily AS (
    INSERT INTO email_daily_stats AS s (team_id, day, domain_id, shard, sent, delivered, opened, clicked, bounced, hard_bounced, complained)
    SELECT f.team_id, f.day, f.domain_id, (pg_backend_pid() % 8)::smallint,
           count(*) FILTER (WHERE f.status = 'SENT' OR (f.status = 'DELIVERED' AND NOT f.after_sent)),
           count(*) FILTER (WHERE f.status = 'DELIVERED'),
           count(*) FILTER (WHERE f.status = 'OPENED'),
           count(*) FILTER (WHERE f.status = 'CLICKED'),
           count(*) FILTER (WHERE f.status = 'BOUNCED'),
           count(*) FILTER (WHERE f.status = 'BOUNCED'),
           count(*) FILTER (WHERE f.status = 'COMPLAINED')
    FROM firsts f
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
      complained = s.complained + excluded.complained
  )
  INSERT INTO email_campaign_counts AS c (campaign_id, shard, team_id, sent, delivered, opened, clicked, bounced, hard_bounced, complained)
  SELECT f.campaign_id, (pg_backend_pid() % 8)::smallint, f.team_id,
         count(*) FILTER (WHERE f.status = 'SENT' OR (f.status = 'DELIVERED' AND NOT f.after_sent)),
         count(*) FILTER (WHERE f.status = 'DELIVERED'),
         count(*) FILTER (WHERE f.status = 'OPENED'),
         count(*) FILTER (WHERE f.status = 'CLICKED'),
         count(*) FILTER (WHERE f.status = 'BOUNCED'),
         count(*) FILTER (WHERE f.status = 'BOUNCED'),
         count(*) FILTER (WHERE f.status = 'COMPLAINED')
  FROM firsts f
  WHERE f.campaign_id IS NOT NULL
  GROUP BY f.campaign_id, f.team_id
  ORDER BY f.campaign_id
  ON CONFLICT (campaign_id, shard) DO UPDATE SET
    sent = c.sent + excluded.sent,
    delivered = c.delivered + excluded.delivered,
    opened = c.opened + excluded.opened,
    clicked = c.clicked + excluded.clicked,
    bounced = c.bounced + excluded.bounced,
    hard_bounced = c.hard_bounced + excluded.hard_bounced,
    complained = c.complained + excluded.complained;
  RETURN NULL;
END
$$;

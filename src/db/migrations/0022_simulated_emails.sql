-- Mail to the simulator's addresses only (emails/simulator.ts) is marked, and left out of the daily
-- counters that analytics and reputation read: a team's tests of its bounce handling must not look
-- like bounces. A campaign's own counts still count it (a test campaign shows its figures). The
-- function is 0019's, with that one condition.
ALTER TABLE emails ADD COLUMN simulated boolean NOT NULL DEFAULT false;

CREATE OR REPLACE FUNCTION email_daily_stats_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH firsts AS (
    SELECT n.team_id, (n.created_at AT TIME ZONE 'UTC')::date AS day, coalesce(m.domain_id, 0) AS domain_id,
           m.campaign_id, m.simulated, n.status,
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
    WHERE NOT f.simulated
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

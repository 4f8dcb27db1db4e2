-- address_activity (0011) kept by a statement-level trigger instead of a row trigger: one upsert per
-- (team, address) for all the events a statement inserts (group commit of opens and clicks, batches
-- of bounce reports, a delivery's per-recipient events), instead of a function call and an upsert
-- per event. Same rule: the latest time of each kind wins, addresses locked in sorted order; a row
-- is only rewritten when one of its times moves forward.
DROP TRIGGER email_events_address_activity ON email_events;
DROP FUNCTION address_activity_record();

CREATE FUNCTION address_activity_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO address_activity AS a (team_id, address, last_received_at, last_opened_at, last_clicked_at, last_bounced_at, last_complained_at)
  SELECT r.team_id, r.address,
         max(n.created_at) FILTER (WHERE n.status IN ('SENT', 'DELIVERED')),
         max(n.created_at) FILTER (WHERE n.status = 'OPENED'),
         max(n.created_at) FILTER (WHERE n.status = 'CLICKED'),
         max(n.created_at) FILTER (WHERE n.status = 'BOUNCED'),
         max(n.created_at) FILTER (WHERE n.status = 'COMPLAINED')
  FROM new_events n
  JOIN email_recipients r ON r.email_id = n.email_id AND r.team_id = n.team_id
  WHERE n.status IN ('SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED')
  GROUP BY r.team_id, r.address
  ORDER BY r.team_id, r.address
  ON CONFLICT (team_id, address) DO UPDATE SET
    last_received_at = greatest(a.last_received_at, excluded.last_received_at),
    last_opened_at = greatest(a.last_opened_at, excluded.last_opened_at),
    last_clicked_at = greatest(a.last_clicked_at, excluded.last_clicked_at),
    last_bounced_at = greatest(a.last_bounced_at, excluded.last_bounced_at),
    last_complained_at = greatest(a.last_complained_at, excluded.last_complained_at)
  WHERE excluded.last_received_at > a.last_received_at IS NOT FALSE AND excluded.last_received_at IS NOT NULL
     OR excluded.last_opened_at > a.last_opened_at IS NOT FALSE AND excluded.last_opened_at IS NOT NULL
     OR excluded.last_clicked_at > a.last_clicked_at IS NOT FALSE AND excluded.last_clicked_at IS NOT NULL
     OR excluded.last_bounced_at > a.last_bounced_at IS NOT FALSE AND excluded.last_bounced_at IS NOT NULL
     OR excluded.last_complained_at > a.last_complained_at IS NOT FALSE AND excluded.last_complained_at IS NOT NULL;
  RETURN NULL;
END
$$;

CREATE TRIGGER email_events_address_activity AFTER INSERT ON email_events
  REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION address_activity_record();

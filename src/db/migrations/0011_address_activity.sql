-- What each address did with a team's mail, one row per (team, address): the latest time of each
-- kind of event on any email of the team to that address. Segments' email_activity (received,
-- opened, clicked: ever / never / in_last_days) and email_problem (bounced, complained) conditions
-- read this row instead of joining email_recipients to email_events for every contact (in
-- bench/segment-count.ts, 1,000,000 contacts and 2,000,000 events, that join was about 190 ms of a
-- 460 ms count; figures in bench/RESULTS.md). "An event of this kind at or after T" is exactly
-- "the latest such event is at or after T", so the summary answers the same question.
--
-- Kept by the trigger below on every insert into email_events, whoever writes it (sending,
-- delivery, later bounce/complaint/open/click capabilities), in the writer's own transaction. Only
-- the later of two times is kept, so events arriving out of order leave the right answer.
CREATE TABLE address_activity (
  team_id            integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  -- lower-cased, as in email_recipients and contacts
  address            text NOT NULL,
  last_received_at   timestamptz,  -- SENT or DELIVERED
  last_opened_at     timestamptz,
  last_clicked_at    timestamptz,
  last_bounced_at    timestamptz,
  last_complained_at timestamptz,
  PRIMARY KEY (team_id, address)
);

-- "Since T" as a range of an index, read index-only (address included): the planner hashes the
-- addresses and probes them with the contacts it scans (a segment count), or probes the primary key
-- per contact when few contacts are candidates.
CREATE INDEX address_activity_received ON address_activity (team_id, last_received_at) INCLUDE (address) WHERE last_received_at IS NOT NULL;
CREATE INDEX address_activity_opened ON address_activity (team_id, last_opened_at) INCLUDE (address) WHERE last_opened_at IS NOT NULL;
CREATE INDEX address_activity_clicked ON address_activity (team_id, last_clicked_at) INCLUDE (address) WHERE last_clicked_at IS NOT NULL;
CREATE INDEX address_activity_bounced ON address_activity (team_id) INCLUDE (address) WHERE last_bounced_at IS NOT NULL;
CREATE INDEX address_activity_complained ON address_activity (team_id) INCLUDE (address) WHERE last_complained_at IS NOT NULL;

-- One event: every recipient address of its email moves to at least the event's time. Addresses in
-- sorted order, so two writers touching the same addresses lock them in the same order.
CREATE FUNCTION address_activity_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO address_activity AS a (team_id, address, last_received_at, last_opened_at, last_clicked_at, last_bounced_at, last_complained_at)
  SELECT r.team_id, r.address,
         CASE WHEN NEW.status IN ('SENT', 'DELIVERED') THEN NEW.created_at END,
         CASE WHEN NEW.status = 'OPENED' THEN NEW.created_at END,
         CASE WHEN NEW.status = 'CLICKED' THEN NEW.created_at END,
         CASE WHEN NEW.status = 'BOUNCED' THEN NEW.created_at END,
         CASE WHEN NEW.status = 'COMPLAINED' THEN NEW.created_at END
  FROM email_recipients r
  WHERE r.email_id = NEW.email_id AND r.team_id = NEW.team_id
  ORDER BY r.address
  ON CONFLICT (team_id, address) DO UPDATE SET
    last_received_at = greatest(a.last_received_at, excluded.last_received_at),
    last_opened_at = greatest(a.last_opened_at, excluded.last_opened_at),
    last_clicked_at = greatest(a.last_clicked_at, excluded.last_clicked_at),
    last_bounced_at = greatest(a.last_bounced_at, excluded.last_bounced_at),
    last_complained_at = greatest(a.last_complained_at, excluded.last_complained_at);
  RETURN NULL;
END
$$;

-- The WHEN test runs without calling the function, so the events of sending (QUEUED, SCHEDULED,
-- SUPPRESSED, …) cost the send path nothing here.
CREATE TRIGGER email_events_address_activity AFTER INSERT ON email_events
  FOR EACH ROW WHEN (NEW.status IN ('SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED'))
  EXECUTE FUNCTION address_activity_record();

-- The events recorded before this migration.
INSERT INTO address_activity (team_id, address, last_received_at, last_opened_at, last_clicked_at, last_bounced_at, last_complained_at)
SELECT r.team_id, r.address,
       max(e.created_at) FILTER (WHERE e.status IN ('SENT', 'DELIVERED')),
       max(e.created_at) FILTER (WHERE e.status = 'OPENED'),
       max(e.created_at) FILTER (WHERE e.status = 'CLICKED'),
       max(e.created_at) FILTER (WHERE e.status = 'BOUNCED'),
       max(e.created_at) FILTER (WHERE e.status = 'COMPLAINED')
FROM email_events e
JOIN email_recipients r ON r.email_id = e.email_id AND r.team_id = e.team_id
WHERE e.status IN ('SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED')
GROUP BY r.team_id, r.address;

-- Statistics now, so that the first segment counts are planned on the filled table.
ANALYZE address_activity;

-- A later open as one narrow update of its copy's tally (src/emails/email-opens.ts). Migration 0018
-- kept the latest opens as a jsonb list: every open rewrote a ~1 KB row (1.2 KB of WAL an open) and
-- rebuilt the list with jsonb_path_query_array, and the statement also locked the email row and
-- probed the address's activity for every open: about 20 µs of PostgreSQL CPU an open. Now:
--
--   recent_at, recent_user_agents  the same latest opens (oldest first, at most 11: the first open
--                                  among them until 10 later ones push it out), as two arrays that
--                                  an update appends to and slices
--   activity_at                    when this copy last moved its recipients' address_activity
--                                  .last_opened_at; a later open moves it again only when more than
--                                  an hour past this, so the hourly rule needs no probe of
--                                  address_activity
--
-- A later open no longer touches the email row: only a copy's first open moves the status.
ALTER TABLE email_opens
  ADD COLUMN recent_at timestamptz[],
  ADD COLUMN recent_user_agents text[],
  ADD COLUMN activity_at timestamptz;

-- convert:start
UPDATE email_opens SET
  recent_at = ARRAY(SELECT (r.item->>'at')::timestamptz FROM jsonb_array_elements(recent_opens) WITH ORDINALITY AS r(item, n) ORDER BY r.n),
  recent_user_agents = ARRAY(SELECT r.item->>'userAgent' FROM jsonb_array_elements(recent_opens) WITH ORDINALITY AS r(item, n) ORDER BY r.n),
  activity_at = last_opened_at;
-- convert:end

ALTER TABLE email_opens
  DROP COLUMN recent_opens,
  ALTER COLUMN recent_at SET NOT NULL,
  ALTER COLUMN recent_user_agents SET NOT NULL,
  ALTER COLUMN activity_at SET NOT NULL;

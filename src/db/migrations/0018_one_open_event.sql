-- One OPENED event per tracked copy (src/tracking/README.md): the first open of an email (or, for a
-- MARKETING email, of one recipient's copy) inserts the event; later opens only update the copy's
-- tally in email_opens, which reads of the event merge into its data (openCount, lastOpenedAt, the
-- latest later opens). Repeated opens are the bulk of pixel traffic (readers reopening, image
-- proxies, previews); an update of one small row fires none of the insert triggers on email_events
-- (webhook fan-out, daily counters, address activity) nor its foreign-key checks.
--
-- The tally is its own table, not the event's data, so that events stay insert-only and each open is
-- a HOT update: no index covers the columns it changes, and the fillfactor leaves room on the page
-- for the new row version. Updating the event row itself left no room on full event pages, so every
-- open added entries to all of email_events' indexes, and finding the copy's row meant walking them.
--
-- open_key names the copy: '' for an email's opens (a transactional email is one message to all its
-- recipients), the recipient's address for a MARKETING copy. On email_events it is set on OPENED
-- events only (NULL on every other event), and joins the event to its tally.
ALTER TABLE email_events ADD COLUMN open_key text;

CREATE TABLE email_opens (
  email_id       text NOT NULL REFERENCES emails (id) ON DELETE CASCADE,
  open_key       text NOT NULL,
  open_count     integer NOT NULL,
  last_opened_at timestamptz NOT NULL,
  -- [{at, userAgent}], oldest first: the latest LATER_OPENS_KEPT + 1 opens (src/emails/email-opens.ts),
  -- the first open among them while there are no more; the event's laterOpens are the last
  -- min(open_count - 1, LATER_OPENS_KEPT) of them
  recent_opens   jsonb NOT NULL,
  PRIMARY KEY (email_id, open_key)
) WITH (fillfactor = 50);

-- Opens recorded before this migration (one event each): the earliest event of each copy is kept as
-- its OPENED event and gets a tally; the later events become the tally and are removed. (test/emails/
-- record-opens.test.ts runs this statement, between the markers, on events written the old way.)
-- fold:start
WITH opens AS (
  SELECT e.id, e.email_id, e.created_at, e.data,
         coalesce(e.data->>'recipient', '') AS key,
         row_number() OVER (PARTITION BY e.email_id, coalesce(e.data->>'recipient', '') ORDER BY e.created_at, e.id) AS rank
  FROM email_events e
  WHERE e.status = 'OPENED' AND e.open_key IS NULL
),
tally AS (
  INSERT INTO email_opens (email_id, open_key, open_count, last_opened_at, recent_opens)
  SELECT o.email_id, o.key, count(*), max(o.created_at),
         jsonb_path_query_array(
           jsonb_agg(jsonb_build_object('at', herald_iso(o.created_at), 'userAgent', o.data->'userAgent') ORDER BY o.created_at, o.id),
           '$[last - 10 to last]')
  FROM opens o
  GROUP BY o.email_id, o.key
),
kept AS (
  UPDATE email_events e SET open_key = o.key FROM opens o WHERE e.id = o.id AND o.rank = 1
)
DELETE FROM email_events e USING opens o WHERE e.id = o.id AND o.rank > 1;
-- fold:end

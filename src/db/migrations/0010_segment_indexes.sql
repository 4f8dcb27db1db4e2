-- Indexes for counting and listing segments on large books (src/segments/compile.ts; measured by
-- bench/segment-count.ts, plans in bench/RESULTS.md). The contact side needs none: a book's
-- contacts are read through contacts_book_id or a scan, and "the team's emails to this address"
-- is the primary key of email_recipients (team_id, address, email_id), read index-only.

-- email_activity (received / opened / clicked: ever, never, in_last_days) and email_problem
-- (bounced / complained), probed per contact: "has this email an event of these statuses since
-- then?" for each email the team sent to the contact's address (nested loop semi join from
-- email_recipients_pkey). Answered from the index alone (team_id included for the join's
-- e.team_id = r.team_id), instead of reading every event of the email from the heap through
-- email_events_email.
CREATE INDEX email_events_email_status ON email_events (email_id, status, created_at) INCLUDE (team_id);

-- The same conditions the other way round, when many contacts are candidates (hash semi join):
-- the team's events of these statuses since a time, as a range of the index, read index-only
-- (email_id included), instead of a scan of all the team's events.
CREATE INDEX email_events_team_status ON email_events (team_id, status, created_at) INCLUDE (email_id);

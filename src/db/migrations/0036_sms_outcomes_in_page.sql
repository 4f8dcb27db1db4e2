-- Cheaper status writes for the delivery worker (figures: bench/RESULTS.md, "SMS delivery").
--
-- Its claim stamps lease_until and attempts, which no index holds: with room left on the row's page
-- PostgreSQL writes that as a HOT update, with no new index entries. Rows are claimed in batches of
-- neighbours, so each page keeps half its space for their new versions (pages written from now on).
ALTER TABLE sms_messages SET (fillfactor = 50);

-- A status change adds an entry to every index whose predicate the new row meets. Most messages
-- end sent or delivered, and a list of those reads the team's list index densely; the index by
-- status is only needed to find the rare ones, so sent and delivered rows stay out of it.
DROP INDEX sms_messages_team_status_list;
CREATE INDEX sms_messages_team_status_list ON sms_messages (team_id, status, created_at DESC, id DESC)
  WHERE status IN ('queued', 'failed', 'rejected');

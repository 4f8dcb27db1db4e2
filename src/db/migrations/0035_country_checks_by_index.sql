-- The risk signal "a destination country the team has never sent to" asks whether a (team, country)
-- row exists. With few teams the planner expects many matches and answers that EXISTS with a
-- sequential scan, which reads the whole table when there is none (a new country). With created_at
-- in the index the check is written as `ORDER BY created_at LIMIT 1`, which only the index serves
-- without a sort, so the planner keeps to the index however skewed the table is.
DROP INDEX sms_messages_team_country;
CREATE INDEX sms_messages_team_country ON sms_messages (team_id, country, created_at);
DROP INDEX verifications_team_country;
CREATE INDEX verifications_team_country ON verifications (team_id, country, created_at)
  WHERE country IS NOT NULL AND status <> 'refused';

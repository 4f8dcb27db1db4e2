-- A team's daily send counter is split over several rows (shards) so that concurrent sends of one
-- team do not all wait on one row lock until commit. Each shard may take sends up to its own `cap`
-- without looking at the others; the caps of a day add up to at most the daily limit they were set
-- for (`day_limit`), so the day's total can never pass it. When a shard is full (or the rows are
-- missing, or the plan's limit changed), the sender locks every shard of the day, checks the total,
-- and shares what is left of the limit out again. See src/emails/limits.ts.
ALTER TABLE team_daily_usage ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE team_daily_usage ADD COLUMN cap integer NOT NULL DEFAULT 0;
ALTER TABLE team_daily_usage ADD COLUMN day_limit integer;
ALTER TABLE team_daily_usage DROP CONSTRAINT team_daily_usage_pkey;
ALTER TABLE team_daily_usage ADD PRIMARY KEY (team_id, day, shard);

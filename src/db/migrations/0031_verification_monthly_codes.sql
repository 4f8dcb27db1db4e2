-- One-time codes sent per team and UTC month (the usage read's thisMonth.codes): counted by the
-- statement or transaction that stores a verification with its code, so the read never scans
-- verifications. A verification refused by risk scoring has no code and is not counted. Spread over
-- shards (a random one per code, like team_daily_usage) so that concurrent code sends of one team
-- do not queue on one row; the read sums them.
CREATE TABLE verification_monthly_codes (
  team_id  integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  month    date NOT NULL,
  shard    smallint NOT NULL,
  codes    bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, month, shard)
);

-- The codes sent before this counter existed.
INSERT INTO verification_monthly_codes (team_id, month, shard, codes)
SELECT team_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, 0, count(*)
FROM verifications
WHERE status <> 'refused'
GROUP BY 1, 2;

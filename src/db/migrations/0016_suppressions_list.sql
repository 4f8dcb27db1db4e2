-- The admin API's suppression list, newest first per team (src/admin/suppressions-routes.ts).
CREATE INDEX suppressions_team_created ON suppressions (team_id, created_at DESC, email DESC);

-- The email log filtered by status (GET /v1/emails?status=, issue 45): a team's emails of one
-- status, newest first, keyset-paged. Without it a rare status (complaints, a status no email has)
-- reads the team's whole log through emails_team_created: seconds for millions of emails. Status
-- changes already write every index of emails (the column is in emails_due's predicate, so no
-- update is HOT): this is one index entry more for each. On a large emails table an operator may
-- build it first with CREATE INDEX CONCURRENTLY under this name, and the migration finds it there.
CREATE INDEX IF NOT EXISTS emails_team_status_created ON emails (team_id, status, created_at DESC, id DESC);

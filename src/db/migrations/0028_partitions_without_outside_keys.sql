-- The partitioned tables keep no foreign key to a table outside their family (teams, domains,
-- webhooks, inboxes); the keys inside a family (an email's events to its email) stay, per month.
-- Why: removing a partition removes its foreign keys, and removing a foreign key takes ACCESS
-- EXCLUSIVE on the table it references. A retention drop then waited on `teams`, which every
-- request reads, while holding the emails family: a send that had read `teams` and went on to
-- `emails` deadlocked with it, and every request queued behind the wait.
-- What the keys did is done otherwise: teams are never deleted (a test deletes its own rows), domains
-- and inboxes are deleted softly (deleted_at), and a webhook's deletion deletes its calls
-- (src/webhooks/queries.ts).
DO $$
DECLARE
  fk record;
BEGIN
  FOR fk IN
    SELECT c.conname, c.conrelid::regclass AS tab
    FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
    WHERE c.contype = 'f' AND c.conparentid = 0 AND r.relkind = 'p' AND r.relnamespace = current_schema()::regnamespace
  LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tab, fk.conname);
  END LOOP;
END
$$;
